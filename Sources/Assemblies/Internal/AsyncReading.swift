/// The entry of every `await` read: the async `define` overloads call it.
///
/// An async read runs on the resolver of the task's ``AsyncGraph`` — the graph of the top-level
/// `await` read it belongs to, or a new one — through the same three calls as a synchronous read:
/// the graph decides (``AsyncGraph/decide(_:scope:)``), handing back an instance or the frame to
/// build one in, the body runs and may suspend, and the graph leaves the frame
/// (``AsyncGraph/leave(_:returning:)``, or ``AsyncGraph/bodyThrew(_:abandoning:)``). Each call runs with the
/// graph's resolver installed on the thread the task is on at the time. The only difference: a task
/// that finds a stored definition being built elsewhere suspends until its slot changes, instead of
/// blocking its thread.
///
/// The getter inlines one non-generic, synchronous call, ``begin(_:scope:in:)``, which answers a
/// cached or captured read at once and otherwise decides the read in the task's graph (opening it
/// for a top-level read); and one unspecialized generic async function,
/// ``read(_:scope:_:isolation:_:)`` (one for each shape of body), which waits for a slot being built
/// elsewhere if it must, runs the body, leaves the frame and ends the graph the read opened. Being
/// unspecialized, it allocates its generic values in the task: only the body's result and error.
/// Inlined into every getter instead, it would spare the task those, and cost the compiler twelve
/// times as long for a chain of async getters.
@usableFromInline
enum AsyncReading {
    /// How an `await` read goes on after ``begin(_:scope:in:)``.
    @usableFromInline
    enum Begun {
        /// Hand back this instance: an override's capture, a cached singleton, or what the graph
        /// has (a graph the read opened is finished already).
        case instance(AnyObject)
        /// Go on in a graph: build, or wait. A read that opened the graph ends it:
        /// ``AsyncGraph/finish(_:)`` once its frame is left, ``AsyncGraph/abandon()`` when its body
        /// throws or the task is cancelled while it waits.
        case reading(Read)
    }

    /// A read that ``begin(_:scope:in:)`` left in `graph`, to go on with at `step`. When
    /// `opensGraph`, the read opened the graph and ends it, holding the only reference to it by then,
    /// so that its resolver can serve the next graph (see ``AsyncGraph/finish(_:)``).
    @usableFromInline
    struct Read {
        /// Nil once ``read(_:scope:_:isolation:_:)`` has taken it over.
        var graph: AsyncGraph?
        let opensGraph: Bool
        let step: AsyncGraph.Step
    }

    /// Reads the definition `key` of `family` in the current task's graph of the family, or in a
    /// new one.
    @inlinable
    @inline(__always)
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        isolation: isolated (any Actor)?,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        switch begin(key, scope: scope, in: family) {
        case .instance(let object):
            return unboxStored(object, scope: scope, as: T.self)
        case .reading(var read):
            return try await Self.read(key, scope: scope, &read, isolation: isolation, body)
        }
    }

    /// The same, for a body that takes no `Definition`: called as it is, with no closure around it,
    /// which would be one more async frame per read.
    @inlinable
    @inline(__always)
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        isolation: isolated (any Actor)?,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        switch begin(key, scope: scope, in: family) {
        case .instance(let object):
            return unboxStored(object, scope: scope, as: T.self)
        case .reading(var read):
            return try await Self.read(key, scope: scope, &read, isolation: isolation, body)
        }
    }

    /// Goes on with a read that ``begin(_:scope:in:)`` left in a graph: waits for a slot being built
    /// elsewhere, runs the body, leaves its frame, and ends the graph when the read opened it.
    ///
    /// Generic, but never specialized: compiled once, in the library, it keeps async getters small
    /// to compile, and it is the one async frame the read adds to the task. Its generic values live
    /// in memory the task allocates, one allocation each, so it keeps only two: the body's result
    /// and its error. The body's error goes on as it is, with its frame undone in a `defer` — a
    /// `catch` would keep a second copy — and the result goes to ``built(_:in:leaving:opened:scope:)``
    /// without a copy.
    @usableFromInline
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        _ read: inout Read,
        isolation: isolated (any Actor)?,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        var (graph, step) = await settle(
            key,
            scope: scope,
            &read,
            isolation: isolation,
            throwing: E.self
        )
        guard case .build(let handle) = step else {
            guard let object = ended(&graph, at: step, opened: read.opensGraph) else { throw cancellation(as: E.self) }
            return unboxStored(object, scope: scope, as: T.self)
        }
        if E.self != Never.self { graph.bodyMayThrow(handle) }
        var hasLeft = false
        defer { if !hasLeft { graph.bodyThrew(handle, abandoning: read.opensGraph) } }
        let result = try await body(Definition(handle, key: key))
        hasLeft = true
        return built(consume result, in: &graph, leaving: handle, opened: read.opensGraph, scope: scope)
    }

    /// The same, for a body that takes no `Definition`, called as it is: a closure around it to
    /// make a `Definition` of the handle would be one more async frame per read.
    @usableFromInline
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        _ read: inout Read,
        isolation: isolated (any Actor)?,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        var (graph, step) = await settle(
            key,
            scope: scope,
            &read,
            isolation: isolation,
            throwing: E.self
        )
        guard case .build(let handle) = step else {
            guard let object = ended(&graph, at: step, opened: read.opensGraph) else { throw cancellation(as: E.self) }
            return unboxStored(object, scope: scope, as: T.self)
        }
        if E.self != Never.self { graph.bodyMayThrow(handle) }
        var hasLeft = false
        defer { if !hasLeft { graph.bodyThrew(handle, abandoning: read.opensGraph) } }
        let result = try await body()
        hasLeft = true
        return built(consume result, in: &graph, leaving: handle, opened: read.opensGraph, scope: scope)
    }

    /// Takes over `read`'s graph, and waits there, if the read must, until it has an instance, a
    /// frame to build one in, or was cancelled (when errors of type `E` can be a
    /// `CancellationError`): never ``AsyncGraph/Step/wait(_:)``.
    @inline(__always)
    private static func settle<E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        _ read: inout Read,
        isolation: isolated (any Actor)?,
        throwing _: E.Type
    ) async -> (AsyncGraph, AsyncGraph.Step) {
        guard let graph = read.graph.take() else {
            preconditionFailure("Assemblies: an async read went on twice")
        }
        guard case .wait(let waiting) = read.step else { return (graph, read.step) }
        let cancellable = admitsCancellation(E.self)
        let step = await graph.decide(key, scope: scope, afterWaitingFor: waiting, cancellable: cancellable)
        return (graph, step)
    }

    /// Ends a read that builds nothing, ending `graph` first when the read `opened` it: the instance
    /// `step` has, or nil when the task was cancelled.
    private static func ended(_ graph: inout AsyncGraph, at step: AsyncGraph.Step, opened: Bool) -> AnyObject? {
        switch step {
        case .instance(let object):
            if opened { AsyncGraph.finish(&graph) }
            return object
        case .cancelled:
            if opened { graph.abandon() }
            return nil
        case .build, .wait:
            preconditionFailure("Assemblies: an async read ended before it built or waited")
        }
    }

    /// Leaves the frame `handle` names with the body's `result`, and ends `graph` when the read
    /// `opened` it. Not inlined: the async function that calls it keeps no copy of `result`.
    @inline(never)
    private static func built<T>(
        _ result: consuming T,
        in graph: inout AsyncGraph,
        leaving handle: DefinitionHandle,
        opened: Bool,
        scope: Scope
    ) -> T {
        withStored(result, scope: scope) { object in
            if opened {
                AsyncGraph.finish(&graph, leaving: handle, returning: object)
            } else {
                graph.leave(handle, returning: object)
            }
        }
        return result
    }

    /// Decides an `await` read of `key`: the instance an override's capture, a singleton cache or the
    /// task's graph of `family` hands back, or the graph to go on in — the task's, or a new one the
    /// read opens (inside the task's graph of another family, if any; ``TaskGraphs`` then finds the
    /// new graph for the task's reads) — and what to do there.
    @usableFromInline
    static func begin(_ key: DefinitionKey, scope: Scope, in family: Family) -> Begun {
        if let capture = OverrideCapture.takingThisRead(of: family) {
            return .instance(capture.captureFirst(key))
        }
        // A key with arguments is never in the thread's caches: the store is looked up, under its
        // lock. In the task's graph of the family, the claim looks it up anyway: the task's graph is
        // looked for first, and the store once.
        let graphFoundFirst = key.hasArguments ? AsyncGraph.ofCurrentTask() : nil
        let isInTaskGraph = graphFoundFirst?.reads(family) ?? false
        if scope.kind == .singleton && !isInTaskGraph
            && (!family.isIntercepted || Resolver.readsUnintercepted(family)),
            let object = Resolver.cachedSingleton(key, in: family)
                ?? Resolver.withCurrent({ $0.cachedSingletonObject(key, in: family) })
        {
            return .instance(object)
        }
        guard let task = TaskIdentity.current else {
            preconditionFailure("Assemblies: an async read outside a task")
        }
        let taskGraph = key.hasArguments ? graphFoundFirst : AsyncGraph.of(task)
        if let taskGraph, taskGraph.reads(family) {
            return .reading(
                Read(graph: taskGraph, opensGraph: false, step: taskGraph.decide(key, scope: scope, in: family))
            )
        }
        if family.isIntercepted {
            family.requireOpen(reading: key)
            WiringFindings.noteTopLevelRead(key)
        }
        var (graph, step) = AsyncGraph.open(family, for: task, inside: taskGraph, deciding: key, scope: scope)
        guard case .instance(let object) = step else {
            return .reading(Read(graph: graph, opensGraph: true, step: step))
        }
        AsyncGraph.finish(&graph)
        return .instance(object)
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
