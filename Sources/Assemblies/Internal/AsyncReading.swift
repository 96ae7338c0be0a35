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
        var graph = AsyncGraph.open(
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
        AsyncGraph.recycle(&graph)
        return result
    }

    /// A read in `graph`: the instance the graph hands back, or the one `body` builds in the frame
    /// it gives. While another task or thread builds a stored definition, this task suspends until
    /// its slot is published, given up or changes hands, then decides again.
    ///
    /// The only generic values kept across a suspension are the body's result and error: every
    /// other step is a non-generic call (``AsyncGraph/decide(_:scope:afterWaiting:)``,
    /// ``AsyncGraph/wait(for:in:reading:cancellable:)``), so that the task allocates little per read.
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        // Whether a wait may still end in `CancellationError` (when `E` admits one).
        var mayCancel = true
        var waited = false
        while true {
            switch graph.decide(key, scope: scope, afterWaiting: waited) {
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
                    graph.bodyThrew(handle)
                    throw error
                }
                graph.installed { _ in Reading.leave(handle, returning: result, scope: scope) }
                return result
            case .wait(let slot, let store):
                let cancellable = mayCancel && admitsCancellation(E.self)
                waited = true
                switch await graph.wait(for: slot, in: store, reading: key, cancellable: cancellable) {
                case .decideAgain:
                    continue
                case .decideAgainUncancellable:
                    mayCancel = false
                case .cancelled:
                    throw cancellation(as: E.self)
                }
            }
        }
    }

    /// Whether an error of type `E` can be a `CancellationError`.
    private static func admitsCancellation<E: Error>(_: E.Type) -> Bool {
        CancellationError() is E
    }

    /// A `CancellationError`, as an `E` (see ``admitsCancellation(_:)``).
    private static func cancellation<E: Error>(as _: E.Type) -> E {
        CancellationError() as! E
    }
}
