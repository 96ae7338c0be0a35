// How a read of a definition runs: the paths inlined into every getter.

extension Resolver {
    // MARK: Resolving

    /// Resolves one read of a definition.
    ///
    /// Overrides cost the common paths nothing but one check before the singleton caches (which
    /// hold the family's own singletons, never a task's): a top-level read checks for them out of
    /// line, and a graph opened while its task overrides the family carries ``overriddenGraph`` in
    /// ``activeFamilyID``, so that each of its reads takes that out-of-line path too.
    @inlinable
    @inline(__always)
    func resolve<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if scope.kind == .singleton && !family.mayBeOverridden {
            // The common case, inlined: a default-keyed singleton this thread has read before.
            let line = singletonLine(for: key)
            if line.pointee.familyID == family.id && line.pointee.name == key.name
                && line.pointee.typeBits == key.typeBits && line.pointee.assemblyBits == key.assemblyBits
                && line.pointee.argumentBits == key.argumentBits, let object = line.pointee.object
            {
                return unboxSingleton(object.takeUnretainedValue(), as: T.self)
            }
            if let cached = cachedSingletonObject(key, in: family) {
                return unboxSingleton(cached, as: T.self)
            }
        }
        if activeFamilyID != family.id {
            return resolveTopLevel(key, scope: scope, in: family, body)
        }
        return resolveInGraph(key, scope: scope, in: family, body)
    }

    @inlinable
    @inline(never)
    func resolveTopLevel<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if activeFamilyID != 0 || isClosing || family.mayBeOverridden {
            if family.mayBeOverridden || activeFamilyID == family.id | Self.overriddenGraph {
                return resolveOverridable(key, scope: scope, in: family, body)
            }
            return withSpare(crossingWith: key) { $0.resolveTopLevel(key, scope: scope, in: family, body) }
        }
        return resolveInNewGraph(
            key,
            scope: scope,
            in: family,
            keepingSingletonsIn: family.singletons,
            overriddenBy: nil,
            body
        )
    }

    @inlinable
    @inline(__always)
    func resolveInGraph<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        switch scope.kind {
        case .objectGraph: resolveShared(key, scope: .objectGraph, body)
        case .prototype: resolvePrototype(key, body)
        case .singleton, .weakSingleton, .resettable: resolveStored(key, scope: scope, body)
        }
    }

    /// Resolves an object-graph definition. The two common cases are inlined into the caller: the
    /// instance is already in this graph, or a definition this thread has read before is read for
    /// the first time in this graph. Everything else goes through ``enter(_:hash:scope:)``.
    @inlinable
    @inline(__always)
    func resolveShared<T>(_ key: DefinitionKey, scope: Scope.Kind, _ body: (Definition<T>) -> T) -> T {
        let hash = key.hashBits
        return withUnsafePointer(to: key) { key in
            // One call of `enter` for every case the fast path leaves, to keep each getter small.
            var step = 0
            var isFast = false
            let (found, _) = keys.find(key, hash: hash)
            if found >= 0 && !entries[found].isSpecial && scope == .objectGraph {
                let entry = entries + found
                if entry.pointee.generation == generation {
                    if entry.pointee.state == .done {
                        (step, isFast) = (~(found << 1 | 1), true)
                    } else if frames[Int(entry.pointee.frame)].hasInstance {
                        // A back-reference to an instance being wired.
                        let frame = Int(entry.pointee.frame)
                        if frame < lowestHandedOut { lowestHandedOut = frame }
                        (step, isFast) = (~(frame << 1), true)
                    }
                } else if touchedCount < touchedCapacity && frameCount < frameCapacity
                    && frameCount + 1 != nextCycleCheck && UInt(bitPattern: key) > stackLimit
                {
                    entry.pointee.generation = generation
                    entry.pointee.scope = scope
                    entry.pointee.state = .building
                    entry.pointee.value = -1
                    touched[touchedCount] = Int32(found)
                    touchedCount += 1
                    serial &+= 1
                    step = frameCount
                    (frames + step).initialize(
                        to: Frame(key: key, entry: Int32(found), scope: scope, value: -1, serial: serial, object: nil)
                    )
                    entry.pointee.frame = Int32(step)
                    frameCount = step + 1
                    isFast = true
                }
            }
            if !isFast {
                step = enter(key, hash: hash, scope: scope)
            }
            if step < 0 {
                return reused(~step, as: T.self)
            }
            let result = body(Definition(resolver: self, frame: step, serial: serial))
            if isReference(T.self) && frames[step].isBare {
                frameCount = step
                let entry = entries + Int(frames[step].entry)
                (frames + step).deinitialize(count: 1)
                entry.pointee.state = .done
                entry.pointee.object = unsafeBitCast(result, to: AnyObject.self)
            } else {
                leave(step, returning: result)
            }
            return result
        }
    }

    /// A prototype builds a new instance, except when it is read straight back from one of its
    /// direct dependencies while it is being wired: then it is that instance.
    @inlinable
    @inline(__always)
    func resolvePrototype<T>(_ key: DefinitionKey, _ body: (Definition<T>) -> T) -> T {
        withUnsafePointer(to: key) { key in
            let top = frameCount - 1
            if key.pointee.isExplicit || (top >= 0 && DefinitionKey.same(frames[top].key, key)) {
                checkPrototypeRead(key)
            }
            if top >= 1 && DefinitionKey.same(frames[top - 1].key, key) {
                return reused(backReference(to: top - 1, key), as: T.self)
            }
            if frameCount == frameCapacity || frameCount + 1 == nextCycleCheck || UInt(bitPattern: key) <= stackLimit {
                prepareToPushDeeper(key)
            }
            serial &+= 1
            let frame = frameCount
            (frames + frame).initialize(
                to: Frame(key: key, entry: -1, scope: .prototype, value: -1, serial: serial, object: nil)
            )
            frameCount = frame + 1
            let result = body(Definition(resolver: self, frame: frame, serial: serial))
            frameCount = frame
            if !frames[frame].isBare {
                leave(frame, returning: result)
            } else {
                (frames + frame).deinitialize(count: 1)
            }
            return result
        }
    }

    // MARK: Overrides

    /// Resolves a read of a family that some task may override, outside a graph of it or in a graph
    /// its task overrides: with the task's override of the definition, if any, and with the
    /// task's own singletons while it overrides the family.
    @usableFromInline
    func resolveOverridable<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if let capture = pendingCapture {
            return capture.capture(key, scope: scope, on: self)
        }
        let isInGraph = activeFamilyID == family.id | Self.overriddenGraph
        guard let context = isInGraph ? activeContext : OverrideContext.innermost(for: family) else {
            if activeFamilyID != 0 || isClosing {
                return withSpare(crossingWith: key) { $0.resolveTopLevel(key, scope: scope, in: family, body) }
            }
            return resolveInNewGraph(
                key,
                scope: scope,
                in: family,
                keepingSingletonsIn: family.singletons,
                overriddenBy: nil,
                body
            )
        }
        if let override = context.override(for: key) {
            return resolve(key, scope: override.scope ?? scope, in: family, context: context, isInGraph: isInGraph) {
                _ in override.make(T.self)
            }
        }
        return resolve(key, scope: scope, in: family, context: context, isInGraph: isInGraph, body)
    }

    /// Resolves a read in a task that overrides `family`, in a graph whose singletons are the
    /// context's.
    func resolve<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        context: OverrideContext,
        isInGraph: Bool,
        _ body: (Definition<T>) -> T
    ) -> T {
        if isInGraph {
            return resolveInGraph(key, scope: scope, in: family, body)
        }
        if activeFamilyID != 0 || isClosing {
            return withSpare(crossingWith: key) {
                $0.resolve(key, scope: scope, in: family, context: context, isInGraph: false, body)
            }
        }
        return resolveInNewGraph(
            key,
            scope: scope,
            in: family,
            keepingSingletonsIn: context.singletons(),
            overriddenBy: context,
            body
        )
    }
}
