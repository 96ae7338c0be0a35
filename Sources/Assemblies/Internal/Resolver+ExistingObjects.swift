// Lookups into the graph in flight: existingObjectByMatchingType() and existingObject(withKey:).

extension Resolver {
    // MARK: Existing objects

    /// Every instance of the current graph of `family` that lookups may see: object-graph instances,
    /// and instances still being wired, of any scope.
    func visibleInstances(in family: Family) -> [(key: DefinitionKey, instance: Any)] {
        guard graph.familyID == family.id else { return [] }
        var visible: [(key: DefinitionKey, instance: Any)] = []
        for touchedIndex in 0..<entries.touched.count {
            let index = entries.touched[touchedIndex]
            let entry = entries.entry(index).pointee
            if entry.state == .done && entry.scope == .objectGraph, let object = entry.object?.takeUnretainedValue() {
                visible.append((entries.key(at: index), unboxed(object)))
            }
        }
        for frame in 0..<frames.count {
            if let object = frames[frame].object?.takeUnretainedValue() {
                visible.append((key(ofFrame: frame), unboxed(object)))
            }
        }
        return visible
    }

    func existingObject<T>(matching _: T.Type, in family: Family) -> T? {
        var match: (value: T, identity: ObjectIdentifier?)?
        var candidates: [DefinitionKey] = []
        for (key, instance) in visibleInstances(in: family) {
            guard let value = instance as? T else { continue }
            let identity = Assemblies.identity(of: instance)
            if let match, match.identity != nil, match.identity == identity { continue }
            candidates.append(key)
            if match == nil { match = (value, identity) }
        }
        if candidates.count > 1 { Failure.ambiguousMatch(T.self, candidates: candidates) }
        return match?.value
    }

    func existingObject<T>(withKey key: DefinitionKey, as _: T.Type, in family: Family) -> T? {
        guard graph.familyID == family.id else { return nil }
        let index = entries.find(key).index
        guard index >= 0, entries.isCurrent(index) else { return nil }
        key.requireSameType(as: entries.key(at: index))
        let visible = visibleInstances(in: family).last { $0.key.matches(key) }
        return visible.map { $0.instance as! T }
    }
}
