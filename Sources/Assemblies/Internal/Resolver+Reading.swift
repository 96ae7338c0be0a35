// How a read of a definition runs: the paths inlined into every getter.

extension Resolver {
    // MARK: Resolving

    /// Resolves one read of a definition (see ``Reading/resolve(_:scope:in:on:_:)``).
    @inlinable
    @inline(__always)
    func resolve<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        try Reading.resolve(key, scope: scope, in: family, on: self, body)
    }

    /// A singleton this thread has already read: from the direct-mapped line for a default key,
    /// inlined, or else from the second-level cache or the family.
    @inlinable
    @inline(__always)
    func cachedSingleton(_ key: UnsafePointer<DefinitionKey>, in family: Family) -> AnyObject? {
        let line = singletonLine(for: key)
        if line.pointee.familyID == family.id && line.pointee.name == key.pointee.name
            && line.pointee.typeBits == key.pointee.typeBits
            && line.pointee.assemblyBits == key.pointee.assemblyBits
            && line.pointee.line == key.pointee.line && line.pointee.file == key.pointee.file
            && line.pointee.argumentBits == key.pointee.argumentBits, let object = line.pointee.object
        {
            return object.takeUnretainedValue()
        }
        return cachedSingletonObject(key, in: family)
    }

    /// A top-level read, out of line. The error of a body crosses this boundary in `failure`, not
    /// as a thrown error: specialized for a body that throws nothing (`E == Never`), this is a
    /// function that can't throw, so the getters that call it check nothing after the call (see
    /// ``Reading/topLevel(_:scope:in:on:_:)``).
    @inlinable
    @inline(never)
    func resolveTopLevel<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        failure: inout E?,
        _ body: (Definition<T>) throws(E) -> T
    ) -> T? {
        do throws(E) {
            return try readTopLevel(key, scope: scope, in: family, body)
        } catch {
            failure = error
            return nil
        }
    }

    @inlinable
    @inline(__always)
    func readTopLevel<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        if activeFamilyID != 0 || isClosing || family.isIntercepted {
            if family.isIntercepted || activeFamilyID == family.id | Self.interceptedGraph {
                return try resolveIntercepted(key, scope: scope, in: family, body)
            }
            return try withSpare(crossingWith: key.pointee) { (spare) throws(E) in
                try Reading.topLevel(key, scope: scope, in: family, on: spare, body)
            }
        }
        return try resolveInNewGraph(
            key,
            scope: scope,
            in: family,
            keepingSingletonsIn: family.singletons,
            overriddenBy: nil,
            observedBy: nil,
            body
        )
    }

    @inlinable
    @inline(__always)
    func resolveInGraph<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        try Reading.inGraph(key, scope: scope, on: self, body)
    }

    // The paths below are split where a body is called: the part before it (`enter…`) and after it
    // (`leave…`) are functions of their own, inlined in release builds — where the code is the
    // same as one function — but separate frames in debug builds, so that the frame that stays on
    // the stack while the body runs (and reads the next level) is small.

    /// Resolves an object-graph definition. The two common cases are inlined into the caller: the
    /// instance is already in this graph, or a definition this thread has read before is read for
    /// the first time in this graph. Everything else — including every read while a stored
    /// definition of a family that checks captive dependencies is being built — goes through
    /// ``enter(_:hash:scope:)``.
    @inlinable
    @inline(__always)
    func resolveShared<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope.Kind,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        try Reading.shared(key, scope: scope, on: self, body)
    }

    /// The frame to build a shared definition in, or the complement of an instance to hand back
    /// (see ``enter(_:hash:scope:)``).
    @inlinable
    @inline(__always)
    func enterShared(_ key: UnsafePointer<DefinitionKey>, scope: Scope.Kind) -> Int {
        let hash = key.pointee.hashBits
        let (found, _) = keys.find(key, hash: hash)
        if found >= 0 && !entries[found].isSpecial && scope == .objectGraph && !isWatchingCaptives {
            let entry = entries + found
            if entry.pointee.generation == generation {
                if entry.pointee.state == .done {
                    return ~(found << 1 | 1)
                }
                let frame = Int(entry.pointee.frame)
                if frames[frame].hasInstance {
                    // A back-reference to an instance being wired.
                    if frame < lowestHandedOut { lowestHandedOut = frame }
                    return ~(frame << 1)
                }
            } else if touchedCount < touchedCapacity && frameCount < frameCapacity
                && frameCount + 1 != nextCycleCheck && hasStackRoom(at: key)
            {
                entry.pointee.generation = generation
                entry.pointee.scope = scope
                entry.pointee.state = .building
                entry.pointee.value = -1
                touched[touchedCount] = Int32(found)
                touchedCount += 1
                serial &+= 1
                let step = frameCount
                (frames + step).initialize(
                    to: Frame(key: key, entry: Int32(found), scope: scope, value: -1, serial: serial, object: nil)
                )
                entry.pointee.frame = Int32(step)
                frameCount = step + 1
                return step
            }
        }
        // One call of `enter` for every case the fast path leaves, to keep each getter small.
        return enter(key, hash: hash, scope: scope)
    }

    /// Finishes the frame of a shared definition with the instance its body returned.
    @inlinable
    @inline(__always)
    func leaveShared<T>(_ step: Int, returning result: T) {
        if isReference(T.self) && frames[step].isBare {
            frameCount = step
            let entry = entries + Int(frames[step].entry)
            (frames + step).deinitialize(count: 1)
            entry.pointee.state = .done
            entry.pointee.object = unsafeBitCast(result, to: AnyObject.self)
        } else {
            leave(step, returning: result)
        }
    }

    /// A prototype builds a new instance, except when it is read straight back from one of its
    /// direct dependencies while it is being wired: then it is that instance.
    @inlinable
    @inline(__always)
    func resolvePrototype<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        try Reading.prototype(key, on: self, body)
    }

    /// The frame to build a prototype in, or the complement of the instance a back-reference gets.
    @inlinable
    @inline(__always)
    func enterPrototype(_ key: UnsafePointer<DefinitionKey>) -> Int {
        let top = frameCount - 1
        if key.pointee.isExplicit || (top >= 0 && DefinitionKey.same(frames[top].key, key)) {
            checkPrototypeRead(key)
        }
        if top >= 1 && DefinitionKey.same(frames[top - 1].key, key) {
            return ~backReference(to: top - 1, key)
        }
        if frameCount == frameCapacity || frameCount + 1 == nextCycleCheck
            || !hasStackRoom(at: key)
        {
            prepareToPushDeeper(key)
        }
        serial &+= 1
        let frame = frameCount
        (frames + frame).initialize(
            to: Frame(key: key, entry: -1, scope: .prototype, value: -1, serial: serial, object: nil)
        )
        frameCount = frame + 1
        return frame
    }

    /// Finishes the frame of a prototype with the instance its body returned.
    @inlinable
    @inline(__always)
    func leavePrototype<T>(_ frame: Int, returning result: T) {
        frameCount = frame
        if !frames[frame].isBare {
            leave(frame, returning: result)
        } else {
            (frames + frame).deinitialize(count: 1)
        }
    }
}
