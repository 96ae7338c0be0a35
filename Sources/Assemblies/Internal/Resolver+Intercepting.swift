internal import CAssemblies

// Reads that leave the fast paths because their family is intercepted: a task may override it, a
// key path is being captured, its reads are observed, or a task has an async graph of it open (see
// `Family.interceptCount`).

extension Resolver {
    /// Resolves a read of an intercepted family outside a graph of it, or in a graph opened while
    /// it was intercepted (``interceptedGraph``): in the task's async graph, if the read is made in
    /// an async body; with the task's override of the definition, if any, with the task's own
    /// singletons while it overrides the family, and reported to the family's observation, if any.
    @usableFromInline
    func resolveIntercepted<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        if let capture = pendingCapture {
            return capture.capture(key.pointee, on: self)
        }
        if let capture = OverrideCapture.takingThisRead(of: family) {
            return capture.captureFirst(key.pointee)
        }
        if let graph = taskGraphToJoin(readingFrom: family) {
            return try readInTaskGraph(graph, key, scope: scope, in: family, body)
        }
        let isInGraph = activeFamilyID == family.id | Self.interceptedGraph
        if !isInGraph && (activeFamilyID != 0 || isClosing) {
            // A top-level read while this resolver is busy: the spare resolves it, and intercepts it.
            return try withSpare(crossingWith: key.pointee) { (spare) throws(E) in
                try Reading.topLevel(key, scope: scope, in: family, on: spare, body)
            }
        }
        let context = isInGraph ? activeContext : OverrideContext.innermost(for: family)
        var observation = isInGraph ? activeObservation : family.observation
        if thread.isReporting || observation?.reports(on: thread) == false {
            observation = nil
        }
        if let override = context?.override(for: key.pointee) {
            return try read(
                key,
                scope: override.scope ?? scope,
                in: family,
                context: context,
                observation: observation,
                isInGraph: isInGraph
            ) { (_: Definition<T>) throws(E) in override.make(T.self) }
        }
        return try read(
            key,
            scope: scope,
            in: family,
            context: context,
            observation: observation,
            isInGraph: isInGraph,
            body
        )
    }

    /// The current task's async graph, when a synchronous read of `family` on this resolver joins it:
    /// the read is made in an async body, or below it, while this thread is in no graph (see
    /// `AsyncGraph`); nil when the family has no async graph open.
    func taskGraphToJoin(readingFrom family: Family) -> AsyncGraph? {
        guard !family.openAsyncGraphs.isZero && activeFamilyID == 0 && !isClosing && !thread.isTask else {
            return nil
        }
        return AsyncGraph.ofCurrentTask()
    }

    /// A synchronous read in an async body, or below it, while this thread is in no graph: it joins
    /// the task's graph (see ``taskGraphToJoin(readingFrom:)``). A function of its own, so that the generic code of the
    /// intercepted path around it doesn't grow.
    @inline(never)
    func readInTaskGraph<T, E: Error>(
        _ graph: AsyncGraph,
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let task = graph.resolver.thread
        let host = task.host
        task.host = thread
        defer { task.host = host }
        return try graph.installed { (resolver) throws(E) in
            try Reading.resolve(key, scope: scope, in: family, on: resolver, body)
        }
    }

    /// Reads `key` in the graph open on this resolver, or in a new graph whose singletons are
    /// `context`'s (or the family's), reported to `observation`.
    func read<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        context: OverrideContext?,
        observation: Observation?,
        isInGraph: Bool,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        guard let observation else {
            return try read(
                key,
                scope: scope,
                in: family,
                isInGraph: isInGraph,
                keepingSingletonsIn: context?.singletons() ?? family.singletons,
                overriddenBy: context,
                observedBy: nil,
                body
            )
        }
        let store = isInGraph ? activeStore.unsafelyUnwrapped : context?.singletons() ?? family.singletons
        let source = source(of: key, scope: scope, in: store, of: family)
        let parent = beginReport(key)
        var time = BodyTime()
        let result: T
        do {
            result = try read(
                key,
                scope: scope,
                in: family,
                isInGraph: isInGraph,
                keepingSingletonsIn: store,
                overriddenBy: context,
                observedBy: observation
            ) { (definition) throws(E) in
                try timing(&time) { () throws(E) in try body(definition) }
            }
        } catch {
            endReport(instance: nil, scope: scope, parent: parent, source: .failed, time: time, to: observation)
            throw error
        }
        // A class instance's identity without a dynamic cast, which would cost this unspecialized
        // path more than the rest of the report; a value's (or an existential's) with one.
        let instance =
            isReference(T.self)
            ? ObjectIdentifier(unsafeBitCast(result, to: AnyObject.self)) : Assemblies.identity(of: result)
        endReport(
            instance: instance,
            scope: scope,
            parent: parent,
            source: time.ran ? .built : source,
            time: time,
            to: observation
        )
        return result
    }

    /// Reads `key` in the graph open on this resolver, or else in a new graph that keeps singletons
    /// in `store` (made only then), overridden by `context` and observed by `observation`.
    func read<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        isInGraph: Bool,
        keepingSingletonsIn store: @autoclosure () -> SingletonStore,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        if isInGraph {
            return try resolveInGraph(key, scope: scope, in: family, body)
        }
        return try resolveInNewGraph(
            key,
            scope: scope,
            in: family,
            keepingSingletonsIn: store(),
            overriddenBy: context,
            observedBy: observation,
            body
        )
    }

    // MARK: Reporting

    /// A read being reported: its place among the reads of the thread, and the time the bodies it
    /// read took.
    struct TraceFrame {
        let sequence: UInt64
        let key: StoredKey
        var childNanoseconds: UInt64 = 0
    }

    /// Starts reporting a read of `key`: pushes its trace frame; returns the frame below, if any.
    func beginReport(_ key: UnsafePointer<DefinitionKey>) -> TraceFrame? {
        let parent = traceFrames.last
        traceFrames.append(TraceFrame(sequence: assemblies_next_resolution_sequence(), key: StoredKey(key.pointee)))
        return parent
    }

    /// How long a body ran, and how long the bodies it read ran, both when it returned: hooks and
    /// `afterAllInjections` steps that run later, while the read is still reported, don't count.
    struct BodyTime {
        var ran = false
        var nanoseconds: UInt64 = 0
        var childNanoseconds: UInt64 = 0
    }

    /// Runs `body`, the body of the read on top of ``traceFrames``, and records its time in `time`.
    func timing<Result, E: Error>(_ time: inout BodyTime, _ body: () throws(E) -> Result) throws(E) -> Result {
        let start = Clock.nanoseconds()
        defer {
            time = BodyTime(
                ran: true,
                nanoseconds: Clock.nanoseconds() &- start,
                childNanoseconds: traceFrames[traceFrames.count - 1].childNanoseconds
            )
        }
        return try body()
    }

    /// Ends reporting the read on top of ``traceFrames``, which returned `instance` (nil for a value,
    /// or when its body threw): delivers it to `observation`, in a graph of its own (see
    /// ``inGraphOfItsOwn(_:)``), so that reads the observer makes never join the graph being built.
    /// They are not reported.
    func endReport(
        instance: ObjectIdentifier?,
        scope: Scope,
        parent: TraceFrame?,
        source: Resolution.Source,
        time: BodyTime,
        to observation: Observation
    ) {
        let frame = traceFrames.removeLast()
        if !traceFrames.isEmpty {
            traceFrames[traceFrames.count - 1].childNanoseconds &+= time.nanoseconds
        }
        let resolution = Resolution(
            scope: scope,
            depth: traceFrames.count,
            source: source,
            instance: instance,
            nanoseconds: time.nanoseconds,
            ownNanoseconds: time.nanoseconds &- min(time.nanoseconds, time.childNanoseconds),
            threadNumber: thread.number,
            threadName: thread.name,
            key: frame.key,
            parentKey: parent?.key,
            sequence: frame.sequence,
            parentSequence: parent?.sequence
        )
        let wasReporting = thread.isReporting
        thread.isReporting = true
        defer { thread.isReporting = wasReporting }
        inGraphOfItsOwn { observation.deliver(resolution, on: thread) }
    }

    /// Where a read of `key` that doesn't build it gets its instance, looked up before it runs.
    func source(
        of key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in store: SingletonStore,
        of family: Family
    ) -> Resolution.Source {
        switch scope.kind {
        case .prototype:
            // A prototype is only reused by a back-reference to it from a direct dependency.
            return .inFlight
        case .objectGraph:
            let (found, _) = keys.find(key, hash: key.pointee.hashBits)
            let isDone = found >= 0 && entries[found].generation == generation && entries[found].state == .done
            return isDone && activeFamilyID != 0 ? .objectGraph : .inFlight
        case .singleton, .weakSingleton, .resettable:
            if scope.kind == .singleton && store === family.singletons && cachedSingleton(key, in: family) != nil {
                return .stored  // from this thread's caches, without the store's lock
            }
            return store.hasPublished(key.pointee) ? .stored : .inFlight
        }
    }
}
