/// The entry of every `await` read: the async `define` overloads call it.
///
/// An async read runs on the resolver of the task's ``AsyncGraph`` — the graph of the top-level
/// `await` read it belongs to, or a new one. Its frame is pushed and popped like a synchronous
/// read's, by the same functions, while the graph's resolver is installed; only the body runs
/// between them, and may suspend. Everything here is out of line and unspecialized: an `await`
/// read costs a task-local lookup and a heap allocation for its key anyway, and the synchronous
/// getters stay as small as they were.
@usableFromInline
enum AsyncReading {
    /// Reads the definition `key` of `family` in the current task's graph of the family, or in a
    /// new one.
    @usableFromInline
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        isolation: isolated (any Actor)?,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        if let capture = OverrideCapture.takingThisRead(of: family) {
            return capture.captureFirst(key)
        }
        // The frame refers to its key for as long as the body runs, across suspensions.
        let keyPointer = UnsafeMutablePointer<DefinitionKey>.allocate(capacity: 1)
        keyPointer.initialize(to: key)
        defer {
            keyPointer.deinitialize(count: 1)
            keyPointer.deallocate()
        }
        if scope.kind == .singleton && !family.isIntercepted,
            let object = Resolver.withCurrent({ $0.cachedSingleton(keyPointer, in: family) })
        {
            return unboxSingleton(object, as: T.self)
        }
        if let graph = AsyncGraph.ofCurrentTask(), graph.family === family {
            return try await readIntercepting(keyPointer, scope: scope, in: graph, body)
        }
        let context = family.isIntercepted ? OverrideContext.innermost(for: family) : nil
        let graph = AsyncGraph.open(
            family,
            keepingSingletonsIn: context?.singletons() ?? family.singletons,
            overriddenBy: context,
            observedBy: family.isIntercepted ? family.observation : nil
        )
        let result: T
        do {
            result = try await AsyncGraph.$current.withValue(
                graph,
                operation: { try await readIntercepting(keyPointer, scope: scope, in: graph, body) },
                isolation: isolation
            )
        } catch {
            graph.abandon()
            throw error as! E
        }
        graph.finish()
        return result
    }

    /// A read in `graph`, with the override of its task, if any, and reported to the graph's
    /// observation, if any.
    static func readIntercepting<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        let resolver = graph.resolver
        guard resolver.activeFamilyID & Resolver.interceptedGraph != 0 else {
            return try await readInGraph(key, scope: scope, in: graph, body)
        }
        if let override = resolver.activeContext?.override(for: key.pointee) {
            return await report(key, scope: override.scope ?? scope, in: graph) {
                (_: Definition<T>) in override.make(T.self)
            }
        }
        return try await report(key, scope: scope, in: graph, body)
    }

    /// A read in `graph`, reported to its observation, if any, like a synchronous read (see
    /// ``Resolver/read(_:scope:in:context:observation:isInGraph:_:)``). A body's time is the time
    /// from its start to its return, suspensions included.
    static func report<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        let resolver = graph.resolver
        guard var observation = resolver.activeObservation else {
            return try await readInGraph(key, scope: scope, in: graph, body)
        }
        if resolver.thread.isReporting || observation.reports(on: resolver.thread) == false {
            return try await readInGraph(key, scope: scope, in: graph, body)
        }
        let (source, parent) = graph.installed { resolver in
            (
                resolver.source(of: key, scope: scope, in: resolver.activeStore.unsafelyUnwrapped, of: graph.family),
                resolver.beginReport(key)
            )
        }
        var time = Resolver.BodyTime()
        let result: T
        do {
            result = try await readInGraph(key, scope: scope, in: graph) { (definition) async throws(E) in
                let start = Clock.nanoseconds()
                defer {
                    time = Resolver.BodyTime(
                        ran: true,
                        nanoseconds: Clock.nanoseconds() &- start,
                        childNanoseconds: resolver.traceFrames[resolver.traceFrames.count - 1].childNanoseconds
                    )
                }
                return try await body(definition)
            }
        } catch {
            graph.installed {
                $0.endReport(instance: nil, scope: scope, parent: parent, source: .failed, time: time, to: observation)
            }
            throw error
        }
        let instance =
            isReference(T.self)
            ? ObjectIdentifier(unsafeBitCast(result, to: AnyObject.self)) : Assemblies.identity(of: result)
        observation = resolver.activeObservation ?? observation
        graph.installed {
            $0.endReport(
                instance: instance,
                scope: scope,
                parent: parent,
                source: time.ran ? .built : source,
                time: time,
                to: observation
            )
        }
        return result
    }

    /// A read in `graph`, by scope.
    static func readInGraph<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        switch scope.kind {
        case .objectGraph:
            let step = graph.installed { $0.enterShared(key, scope: .objectGraph) }
            if step < 0 {
                return graph.installed { $0.reused(~step, as: T.self, for: key) }
            }
            return try await build(in: graph, frame: step, body) { $0.leaveShared(step, returning: $1) }
        case .prototype:
            let step = graph.installed { $0.enterPrototype(key) }
            if step < 0 {
                return graph.installed { $0.reused(~step, as: T.self, for: key) }
            }
            return try await build(in: graph, frame: step, body) { $0.leavePrototype(step, returning: $1) }
        case .singleton, .weakSingleton, .resettable:
            return try await readStored(key, scope: scope, in: graph, body)
        }
    }

    /// Runs the body of the frame `step` that was just pushed, then leaves it with `leave`; undoes
    /// the frame when the body throws.
    static func build<T, E: Error>(
        in graph: AsyncGraph,
        frame step: Int,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T,
        leave: (Resolver, T) -> Void
    ) async throws(E) -> T {
        let resolver = graph.resolver
        let result: T
        do {
            result = try await body(Definition(resolver: resolver, frame: step, serial: resolver.serial))
        } catch {
            graph.installed { $0.bodyThrew(at: step) }
            throw error
        }
        graph.installed { leave($0, result) }
        return result
    }

    /// Reads a stored definition (singleton, weak singleton, resettable scope): the published
    /// instance, or the one this task is building, or builds it. While another task or thread builds
    /// it, this task suspends until it is published or given up, then looks again.
    static func readStored<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        var cancellation = CancellationError() as? E
        var waited = false
        while true {
            let claim = graph.installed { resolver in
                let claim = resolver.claimStoredForTask(key, scope: scope)
                // As a thread does after a wait: threads may have taken instances from it meanwhile.
                if waited { resolver.takeInbox() }
                return claim
            }
            switch claim {
            case .instance(let object):
                return unboxStored(object, scope: scope, as: T.self)
            case .wait(let slot, let store):
                let chain = graph.resolver.threadChain(to: key.pointee).map(StoredKey.init)
                let outcome = await store.wait(
                    for: slot,
                    by: graph.resolver.thread,
                    readingFrom: chain,
                    cancellable: cancellation != nil
                )
                waited = true
                switch outcome {
                case .changed:
                    continue
                case .cancelledWhilePinned:
                    cancellation = nil
                    continue
                case .cancelled:
                    let hasHandedOut = graph.installed { resolver in
                        resolver.takeInbox()
                        return resolver.outermostHandedOut() != nil
                    }
                    // Throwing now would leave an instance that was handed out unfinished, which
                    // stops the program (see `bodyThrew(at:)`): this reader waits for the singleton.
                    guard hasHandedOut else { throw cancellation.unsafelyUnwrapped }
                    cancellation = nil
                    continue
                case .cycle(let chain):
                    Failure.asyncSingletonCycle(graph.resolver.threadChain(to: key.pointee), held: chain.map(\.key))
                }
            case .build(let slot):
                let step = graph.installed { $0.startBuilding(slot, key, scope: scope) }
                let resolver = graph.resolver
                let result: T
                do {
                    result = try await body(Definition(resolver: resolver, frame: step, serial: resolver.serial))
                } catch {
                    graph.installed { $0.bodyThrew(at: step) }
                    throw error
                }
                graph.installed { resolver in
                    let finished =
                        scope.kind == .weakSingleton ? weaklyHeld(result, key.pointee) : boxSingleton(result)
                    resolver.bodyReturned(finished, in: slot)
                    resolver.leave(step, returning: result)
                    resolver.finishBuilding(slot, finished)
                }
                return result
            }
        }
    }
}
