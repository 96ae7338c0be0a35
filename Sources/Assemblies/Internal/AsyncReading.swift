/// The entry of every `await` read: the async `define` overloads call it.
///
/// An async read runs on the resolver of the task's ``AsyncGraph`` — the graph of the top-level
/// `await` read it belongs to, or a new one — through the same three calls as a synchronous read:
/// the graph decides (``AsyncGraph/decide(_:scope:in:)``), handing back an instance or the frame to
/// build one in, the body runs and may suspend, and the graph leaves the frame
/// (``AsyncGraph/leave(_:returning:)``, or ``AsyncGraph/bodyThrew(_:abandoning:)``). Each call runs
/// with the graph's resolver installed on the thread the task is on at the time. The only
/// difference: a task that finds a stored definition being built elsewhere suspends until its slot
/// changes, instead of blocking its thread.
///
/// The getter inlines the orchestration (``read(_:scope:in:isolation:_:)``): non-generic calls into
/// the engine — ``begin(_:scope:in:)``, which answers a cached or captured read at once and otherwise
/// decides the read in the task's graph (opening it for a top-level read), the wait for a slot being
/// built elsewhere, and ``Read``'s calls that leave the frame and end the graph — around one generic
/// call, ``run(_:in:key:isolation:)``, which runs the body and is never inlined. The getter's frame
/// keeps the body's result and error, so the task allocates nothing for them; and since no getter
/// carries the body it calls, a chain of async getters doesn't inline into itself (which took the
/// compiler minutes for 500 of them when the body was inlined too).
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
        @usableFromInline var graph: AsyncGraph?
        @usableFromInline let opensGraph: Bool
        @usableFromInline var step: AsyncGraph.Step

        init(graph: AsyncGraph, opensGraph: Bool, step: AsyncGraph.Step) {
            self.graph = graph
            self.opensGraph = opensGraph
            self.step = step
        }

        /// Whether the read waits for a slot being built elsewhere before it goes on.
        @usableFromInline
        var mustWait: Bool {
            if case .wait = step { return true }
            return false
        }

        /// The frame the body builds in, or nil when the read builds nothing.
        @usableFromInline
        var handle: DefinitionHandle? {
            if case .build(let handle) = step { return handle }
            return nil
        }

        /// Ends a read that builds nothing, ending the graph first when the read opened it: the
        /// instance it has, or nil when the task was cancelled.
        @usableFromInline
        mutating func ended() -> AnyObject? {
            guard var graph = graph.take() else { preconditionFailure("Assemblies: an async read ended twice") }
            switch step {
            case .instance(let object):
                if opensGraph { AsyncGraph.finish(&graph) }
                return object
            case .cancelled:
                if opensGraph { graph.abandon() }
                return nil
            case .build, .wait:
                preconditionFailure("Assemblies: an async read ended before it built or waited")
            }
        }

        /// Records that the body of the frame `handle` names can throw.
        @usableFromInline
        func bodyMayThrow(_ handle: DefinitionHandle) {
            guard let graph else { preconditionFailure("Assemblies: an async read ran after it ended") }
            graph.bodyMayThrow(handle)
        }

        /// Undoes the frame of a body that threw, and ends the graph when the read opened it.
        @usableFromInline
        mutating func bodyThrew() {
            guard let graph = graph.take(), let handle else {
                preconditionFailure("Assemblies: an async read threw with no frame")
            }
            graph.bodyThrew(handle, abandoning: opensGraph)
        }

        /// Leaves the frame `handle` names with `object`, the instance as the engine keeps it, and
        /// ends the graph when the read opened it.
        @usableFromInline
        mutating func built(returning object: Unmanaged<AnyObject>) {
            guard var graph = graph.take(), let handle else {
                preconditionFailure("Assemblies: an async read built with no frame")
            }
            if opensGraph {
                AsyncGraph.finish(&graph, leaving: handle, returning: object)
            } else {
                graph.leave(handle, returning: object)
            }
        }
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
        try await read(
            key,
            scope: scope,
            in: family,
            isolation: isolation,
            running: { handle async throws(E) in try await run(body, in: handle, key: key, isolation: isolation) }
        )
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
        try await read(
            key,
            scope: scope,
            in: family,
            isolation: isolation,
            running: { _ async throws(E) in try await run(body, isolation: isolation) }
        )
    }

    /// What both reads do: ``begin(_:scope:in:)`` decides, the read waits for a slot being built
    /// elsewhere if it must (``wait(_:scope:_:isolation:cancellable:)``), `running` calls
    /// ``run(_:in:key:isolation:)`` to run the body in the frame the read builds in, and ``Read``
    /// leaves the frame and ends the graph the read opened. Everything but the body's call is one of
    /// those non-generic calls, so the getter's frame keeps the body's result and error: the task
    /// allocates nothing for them. Inlined with `running`, which adds no frame of its own.
    @inlinable
    @inline(__always)
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        isolation: isolated (any Actor)?,
        running: (DefinitionHandle) async throws(E) -> T
    ) async throws(E) -> T {
        var read: Read
        switch begin(key, scope: scope, in: family) {
        case .instance(let object):
            return unboxStored(object, scope: scope, as: T.self)
        case .reading(let begun):
            read = begun
        }
        if read.mustWait {
            await wait(key, scope: scope, &read, isolation: isolation, cancellable: admitsCancellation(E.self))
        }
        guard let handle = read.handle else {
            guard let object = read.ended() else { throw cancellation(as: E.self) }
            return unboxStored(object, scope: scope, as: T.self)
        }
        if E.self != Never.self { read.bodyMayThrow(handle) }
        let result: T
        do {
            result = try await running(handle)
        } catch {
            read.bodyThrew()
            throw error
        }
        withStored(result, scope: scope) { read.built(returning: $0) }
        return result
    }

    /// Runs an async body in the frame `handle` names. Never inlined, so that a getter never carries
    /// the body it calls, nor the getters that body reads: inlined, a chain of async getters would
    /// inline into each other, and take the compiler minutes.
    @inlinable
    @inline(never)
    static func run<T, E: Error>(
        _ body: (Definition<T>) async throws(E) -> T,
        in handle: DefinitionHandle,
        key: DefinitionKey,
        isolation: isolated (any Actor)?
    ) async throws(E) -> T {
        try await body(Definition(handle, key: key))
    }

    /// The same, for a body that takes no `Definition`.
    @inlinable
    @inline(never)
    static func run<T, E: Error>(
        _ body: () async throws(E) -> T,
        isolation: isolated (any Actor)?
    ) async throws(E) -> T {
        try await body()
    }

    /// Whether an error of type `E` can be a `CancellationError`. Not inlined: one copy per error
    /// type, called only when a read waits.
    @inlinable
    @inline(never)
    static func admitsCancellation<E: Error>(_: E.Type) -> Bool {
        CancellationError() is E
    }

    /// A `CancellationError`, as an `E` (see ``admitsCancellation(_:)``). Not inlined: one copy per
    /// error type.
    @inlinable
    @inline(never)
    static func cancellation<E: Error>(as _: E.Type) -> E {
        CancellationError() as! E
    }

    /// Waits, in `read`'s graph, for the slot it found being built elsewhere, until it has an
    /// instance, a frame to build one in, or was cancelled (when `cancellable`).
    @usableFromInline
    static func wait(
        _ key: DefinitionKey,
        scope: Scope,
        _ read: inout Read,
        isolation: isolated (any Actor)?,
        cancellable: Bool
    ) async {
        guard let graph = read.graph, case .wait(let waiting) = read.step else {
            preconditionFailure("Assemblies: an async read waited with nothing to wait for")
        }
        read.step = await graph.decide(key, scope: scope, afterWaitingFor: waiting, cancellable: cancellable)
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
}
