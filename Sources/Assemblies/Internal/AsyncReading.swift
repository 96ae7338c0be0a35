/// The entry of every `await` read: the async `define` overloads call it.
///
/// An async read runs on the resolver of the task's ``AsyncGraph`` — the graph of the top-level
/// `await` read it belongs to, or a new one — through the same three calls as a synchronous read:
/// ``Resolver/decide(_:scope:in:suspends:)`` hands back an instance or pushes the frame to build
/// one in, the body runs and may suspend, and ``Resolver/leave(_:returning:)`` (or
/// ``Resolver/bodyThrew(at:)``) finishes the frame. Each call runs with the graph's resolver
/// installed on the thread the task is on at the time. The only difference: a task that finds a
/// stored definition being built elsewhere suspends until its slot changes, instead of blocking its
/// thread. Everything here is out of line and unspecialized: an `await` read costs a task-local
/// lookup anyway, and the synchronous getters stay as small as they are.
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
            return unboxStored(capture.captureFirst(key), scope: scope, as: T.self)
        }
        if scope.kind == .singleton && (!family.isIntercepted || Resolver.readsCachedSingletons(of: family)),
            let object = Resolver.cachedSingleton(key, in: family)
                ?? Resolver.withCurrent({ $0.cachedSingletonObject(key, in: family) })
        {
            return unboxSingleton(object, as: T.self)
        }
        if let graph = AsyncGraph.ofCurrentTask(), graph.family === family {
            return try await read(key, scope: scope, in: graph, body)
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
                operation: { try await read(key, scope: scope, in: graph, body) },
                isolation: isolation
            )
        } catch {
            graph.abandon()
            throw error as! E
        }
        graph.finish()
        return result
    }

    /// A read in `graph`: the instance the graph hands back, or the one `body` builds in the frame
    /// it gives. While another task or thread builds a stored definition, this task suspends until
    /// its slot is published, given up or changes hands, then decides again.
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        var cancellation = CancellationError() as? E
        var waited = false
        while true {
            let decision = graph.installed { resolver in
                let decision = resolver.decide(key, scope: scope, in: graph.family, suspends: true)
                // As a thread does after a wait: threads may have taken instances from it meanwhile.
                if waited { resolver.takeInbox() }
                return decision
            }
            switch decision {
            case .instance(let object):
                return unboxStored(object, scope: scope, as: T.self)
            case .build(let handle):
                if !(E.self is Never.Type) {
                    handle.resolver._withUnsafeGuaranteedRef { $0.bodyMayThrow(at: handle.frame) }
                }
                let result: T
                do {
                    result = try await body(Definition(handle, key: key))
                } catch {
                    graph.installed { _ in handle.resolver._withUnsafeGuaranteedRef { $0.bodyThrew(at: handle.frame) } }
                    throw error
                }
                graph.installed { _ in Reading.leave(handle, returning: result, scope: scope) }
                return result
            case .wait(let slot, let store):
                let chain = graph.resolver.threadChain(to: key).map(StoredKey.init)
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
                    // stops the program (see `undo(_:)`): this reader waits for the singleton.
                    guard hasHandedOut else { throw cancellation! }
                    cancellation = nil
                    continue
                case .cycle(let chain):
                    Failure.asyncSingletonCycle(graph.resolver.threadChain(to: key), held: chain)
                }
            }
        }
    }
}
