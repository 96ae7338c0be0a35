// Singletons already built: the per-thread caches in front of the family's store.

extension Resolver {
    // MARK: Singletons

    /// The object of a singleton already built for `family` (see ``boxSingleton(_:)``), from this
    /// thread's cache or, the first time, from the family.
    @usableFromInline
    func cachedSingletonObject(_ key: DefinitionKey, in family: Family) -> AnyObject? {
        let hash = key.hashBits
        if cacheFamilyID == family.id {
            let (index, _) = cacheKeys.find(key, hash: hash)
            if index >= 0 {
                if key.isExplicit { key.requireSameType(as: cacheKeys.keys[index]) }
                fillSingletonLine(for: key, in: family, with: cacheObjects[index])
                return cacheObjects[index].takeUnretainedValue()
            }
        }
        guard let built = family.singletons.singleton(for: key, in: .singleton) else { return nil }
        let object = checked(built, key)
        if cacheFamilyID != family.id {
            cacheKeys.removeAll()
            cacheFamilyID = family.id
        }
        if cacheKeys.isFull {
            cacheKeys.grow()
            cacheObjects = cacheObjects.moved(count: cacheKeys.count, toCapacity: cacheKeys.capacity)
        }
        let (_, slot) = cacheKeys.find(key, hash: hash)
        let index = withUnsafePointer(to: built.key) { cacheKeys.insert($0, hash: hash, slot: slot) }
        cacheObjects[index] = Unmanaged.passUnretained(object)
        fillSingletonLine(for: key, in: family, with: cacheObjects[index])
        return object
    }

    func fillSingletonLine(for key: DefinitionKey, in family: Family, with object: Unmanaged<AnyObject>) {
        // An explicit key's reads check its type each time; arguments are compared by value.
        guard !key.isExplicit && !key.hasArguments else { return }
        singletonLine(for: key).pointee = SingletonLine(
            familyID: family.id,
            assemblyBits: key.assemblyBits,
            typeBits: key.typeBits,
            argumentBits: key.argumentBits,
            name: key.name,
            object: object
        )
    }

    /// The singleton's object, once `key` is known to read it as the type it was built as.
    func checked(_ singleton: SingletonStore.Singleton, _ key: DefinitionKey) -> AnyObject {
        if key.isExplicit { key.requireSameType(as: singleton.key) }
        return singleton.object
    }
}
