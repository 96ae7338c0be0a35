/// The entry of every `await` read: the async `define` overloads call it.
///
/// An async read runs on the resolver of the task's ``AsyncGraph`` — the graph of the top-level
/// `await` read it belongs to, or a new one — through the same three calls as a synchronous read:
/// the graph decides (``AsyncGraph/decide(_:scope:)``), handing back an instance or the frame to
/// build one in, the body runs and may suspend, and the graph leaves the frame
/// (``AsyncGraph/leave(_:returning:)``, or ``AsyncGraph/bodyThrew(_:)``). Each call runs with the
/// graph's resolver installed on the thread the task is on at the time. The only difference: a task
/// that finds a stored definition being built elsewhere suspends until its slot changes, instead of
/// blocking its thread.
///
/// An async getter inlines one non-generic call (``start(_:scope:in:)``), which answers a cached or
/// captured read at once, and a switch; the reads that build are out of line and unspecialized, as
/// small as a generic async function can be: they keep only the body's result and error across its
/// suspensions, so the task allocates little for them, and the loop of waits is one non-generic
/// call.
@usableFromInline
enum AsyncReading {
    /// Where an `await` read goes, decided before anything generic runs.
    @usableFromInline
    enum Start {
        /// Hand back this instance: an override's capture, or a cached singleton.
        case instance(AnyObject)
        /// Read in the current task's graph of the family.
        case inGraph(AsyncGraph)
        /// A top-level read: open a graph, inside the task's graph of another family, if any.
        case newGraph(outer: AsyncGraph?)
    }

    /// Reads the definition `key` of `family` in the current task's graph of the family, or in a
    /// new one.
    @inlinable
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        isolation: isolated (any Actor)?,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        switch start(key, scope: scope, in: family) {
        case .instance(let object):
            return unboxStored(object, scope: scope, as: T.self)
        case .inGraph(let graph):
            return try await read(key, scope: scope, in: graph, isolation: isolation, body)
        case .newGraph(let outer):
            return try await readInNewGraph(key, scope: scope, in: family, inside: outer, isolation: isolation, body)
        }
    }

    /// Decides where a read of `key` goes: the instance an override's capture or a singleton cache
    /// hands back, the task's graph of `family`, or a new graph.
    @usableFromInline
    static func start(_ key: DefinitionKey, scope: Scope, in family: Family) -> Start {
        if let capture = OverrideCapture.takingThisRead(of: family) {
            return .instance(capture.captureFirst(key))
        }
        if scope.kind == .singleton && (!family.isIntercepted || Resolver.readsCachedSingletons(of: family)),
            let object = Resolver.cachedSingleton(key, in: family)
                ?? Resolver.withCurrent({ $0.cachedSingletonObject(key, in: family) })
        {
            return .instance(object)
        }
        let graph = AsyncGraph.ofCurrentTask()
        if let graph, graph.family === family {
            return .inGraph(graph)
        }
        if family.isIntercepted { family.requireOpen(reading: key) }
        return .newGraph(outer: graph)
    }

    /// A top-level read: opens a graph of `family` for the current task, inside `outer`, the graph
    /// of another family the task has open, if any (``TaskGraphs`` then finds the new graph for the
    /// task's reads); reads `key` in it, and finishes the graph — or abandons it when the read
    /// throws.
    @usableFromInline
    static func readInNewGraph<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        inside outer: AsyncGraph?,
        isolation: isolated (any Actor)?,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        if family.isIntercepted { WiringFindings.noteTopLevelRead(key) }
        var graph = AsyncGraph.open(family, inside: outer)
        let result: T
        do {
            result = try await read(key, scope: scope, in: graph, isolation: isolation, body)
        } catch {
            graph.abandon()
            throw error
        }
        AsyncGraph.finish(&graph)
        return result
    }

    /// A read in `graph`: the instance the graph hands back, or the one `body` builds in the frame
    /// it gives. While another task or thread builds a stored definition, this task suspends until
    /// its slot is published, given up or changes hands, and decides again
    /// (``AsyncGraph/decide(_:scope:afterWaitingFor:cancellable:)``).
    @usableFromInline
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in graph: AsyncGraph,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        var step = graph.decide(key, scope: scope)
        if case .wait(let waiting) = step {
            step = await graph.decide(
                key,
                scope: scope,
                afterWaitingFor: waiting,
                cancellable: admitsCancellation(E.self)
            )
        }
        switch step {
        case .instance(let object):
            return unboxStored(object, scope: scope, as: T.self)
        case .build(let handle):
            if !(E.self is Never.Type) {
                graph.bodyMayThrow(handle)
            }
            let result: T
            do {
                result = try await body(Definition(handle, key: key))
            } catch {
                graph.bodyThrew(handle)
                throw error
            }
            withStored(result, scope: scope) { graph.leave(handle, returning: $0) }
            return result
        case .cancelled:
            throw cancellation(as: E.self)
        case .wait:
            preconditionFailure("Assemblies: an async read was told to wait after its wait")
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
