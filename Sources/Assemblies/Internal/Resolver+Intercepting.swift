internal import CAssemblies

// Reads that leave the fast paths because their family is intercepted: a task may override it, a
// key path is being captured, or its reads are observed (see `Family.interceptCount`).

extension Resolver {
    /// The instance a read gets when it is the read an ``Overrides`` replacement is capturing to learn
    /// which definition its key path or closure names; nil for any other read.
    @inline(__always)
    func capturedRead(_ key: DefinitionKey, of family: Family) -> AnyObject? {
        guard pendingCapture != nil || !family.asyncCaptures.isZero else { return nil }
        return takeCapture(key, of: family)
    }

    /// ``capturedRead(_:of:)`` when a capture may be pending: out of line, so that every other read
    /// of an intercepted family pays two checks.
    @inline(never)
    private func takeCapture(_ key: DefinitionKey, of family: Family) -> AnyObject? {
        if let capture = pendingCapture {
            pendingCapture = nil
            return capture.captureFirst(key)
        }
        return OverrideCapture.takingThisRead(of: family)?.captureFirst(key)
    }

    /// Whether a read of `family`, which is intercepted somewhere, is made here as if nothing
    /// intercepted it: its reads are not observed, the family is not closing, and the current task
    /// doesn't override it or capture a read of it. Such a read may take the family's own singletons
    /// from this thread's caches, and a top-level one opens a plain graph. Overrides that another task
    /// applies cost a task's reads one task-local lookup, and a thread's outside any task one call into
    /// the concurrency runtime (see ``OverrideContext/innermost(for:)``); a graph of the family opened
    /// without overrides keeps to the family's singletons whatever the task applies later.
    static func readsUnintercepted(_ family: Family) -> Bool {
        if let address = assemblies_resolver() {
            return Unmanaged<Resolver>.fromOpaque(address)._withUnsafeGuaranteedRef {
                $0.readsUninterceptedOutsideTasks(family) || $0.readsUninterceptedHere(family)
            }
        }
        guard family.everyReaderCount.isZero else { return false }
        return !TaskIdentity.isRunning || OverrideContext.lookUp(for: family) == nil
    }

    /// Whether a read of `family`, intercepted somewhere, is made where nothing can intercept it: its
    /// reads are not observed and the family is not closing, no capture is pending here, no
    /// synchronous `apply` is open on this thread, and no task runs. What a getter's cached singleton
    /// read of an intercepted family checks first, inlined: while another task applies overrides of
    /// the family, a read on a thread outside any task pays these four loads and the runtime's answer
    /// whether a task runs — no call of the library's. When it is false, the read asks
    /// ``readsUninterceptedHere(_:)``.
    @inlinable
    @inline(__always)
    func readsUninterceptedOutsideTasks(_ family: Family) -> Bool {
        family.everyReaderCount.isZero && pendingCapture == nil && thread.synchronousApplies == 0
            && !TaskIdentity.isRunning
    }

    /// The rest of ``readsUnintercepted(_:)`` once ``readsUninterceptedOutsideTasks(_:)`` is false,
    /// when this is the calling thread's current resolver: what a getter's cached singleton read
    /// calls, with the resolver it has found, when the family is intercepted somewhere and that check
    /// failed. Out of line, so that a getter pays one call for it; a read in a task that doesn't
    /// override the family takes the caches from here too.
    @usableFromInline
    @inline(never)
    func readsUninterceptedHere(_ family: Family) -> Bool {
        guard family.everyReaderCount.isZero && pendingCapture == nil else { return false }
        if graph.familyID == family.id && !graph.isIntercepting { return true }
        // A task runs, or a synchronous apply is open on this thread (the check before this one said
        // so): look.
        return OverrideContext.lookUp(for: family) == nil
    }

    /// Decides a read of an intercepted family outside a graph of it, or a read in a graph opened
    /// while it was intercepted (``OpenGraph/isIntercepting``, with `isInGraph`): with the task's override of
    /// the definition, if any, with the task's own singletons while it overrides the family, and
    /// reported to the family's observation, if any.
    func decideIntercepted(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        isInGraph: Bool,
        suspends: Bool
    ) -> Decision {
        let context = isInGraph ? graph.interception?.context : OverrideContext.innermost(for: family)
        // A wiring check reads in a sandbox: overrides of its own.
        if !isInGraph && context != nil { WiringFindings.noteTopLevelRead(key) }
        // In the graph, its observation is read unretained: the graph keeps it while it is open.
        var observation = isInGraph ? nil : family.observation
        var reported = isInGraph ? graph.observation : observation.map(Unmanaged.passUnretained)
        if thread.isReporting || reported?._withUnsafeGuaranteedRef({ $0.reports(on: thread) }) == false {
            observation = nil
            reported = nil
        }
        guard let override = context?.override(for: key) else {
            return decide(
                key,
                scope: scope,
                in: family,
                overriddenBy: context,
                observedBy: observation,
                reportingTo: reported,
                isInGraph: isInGraph,
                suspends: suspends
            )
        }
        // The double is built here, in the override's scope, as a body would build it.
        let decision = decide(
            key,
            scope: override.scope ?? scope,
            in: family,
            overriddenBy: context,
            observedBy: observation,
            reportingTo: reported,
            isInGraph: isInGraph,
            suspends: false
        )
        guard case .build(let handle) = decision else { return decision }
        let double = override.make(readIn: scope)
        handle.resolver._withUnsafeGuaranteedRef { $0.leave(handle.frame, returning: double) }
        return .instance(double)
    }

    /// Decides `key` in the graph open on this resolver, or in a new graph whose singletons are
    /// `context`'s (or the family's) and whose reads are reported to `observation`; the read itself is
    /// reported to `reported`, if any: the graph's observation in the graph, else `observation`.
    private func decide(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?,
        reportingTo reported: Unmanaged<Observation>?,
        isInGraph: Bool,
        suspends: Bool
    ) -> Decision {
        // The store of a new graph; the graph's is read only where a source is looked up.
        let newStore = isInGraph ? nil : context?.singletons() ?? family.singletons
        // An object-graph read in the graph is looked up once decided, and only if it built nothing:
        // reading an entry doesn't change it (a stored definition's slot may change while a read
        // waits for it, and is looked up before).
        let looksUpAfterwards = isInGraph && scope.kind == .objectGraph
        if let reported {
            beginReport(
                key,
                scope: scope,
                source: looksUpAfterwards
                    ? .inFlight : source(of: key, scope: scope, in: newStore ?? graph.store!, of: family),
                to: reported,
                inGraph: isInGraph
            )
        }
        let decision =
            isInGraph
            ? decideInGraph(key, scope: scope, suspends: suspends)
            : decideInNewGraph(
                key,
                scope: scope,
                in: family,
                keepingSingletonsIn: newStore!,
                overriddenBy: context,
                observedBy: observation,
                suspends: suspends
            )
        guard reported != nil else { return decision }
        switch decision {
        case .build(let handle):
            frames[handle.frame].flags.insert(.endsReport)
            bodyStartsInReportedRead()
        case .instance:
            let source = looksUpAfterwards ? sourceInGraph(of: key) : nil
            endReport(instance: decision.identity(readAs: key.type), source: source)
        case .wait:
            // The task decides again once the slot has changed, and reports the read then.
            cancelReport()
        }
        return decision
    }

    /// The current task's async graph, when a synchronous read of `family` on this resolver joins it:
    /// the read is made in an async body, or below it (in a body of another family), and no graph of
    /// the family is open on this resolver (see `AsyncGraph`); nil when the family has no async graph
    /// open.
    ///
    /// Unretained: the task, which is making the read, holds its graph until it leaves it, after the
    /// read has returned.
    @inline(__always)
    func taskGraphToJoin(readingFrom family: Family) -> Unmanaged<AsyncGraph>? {
        guard !family.openAsyncGraphs.isZero && graph.familyID != family.id && !thread.isTask,
            let task = TaskIdentity.current
        else {
            return nil
        }
        return TaskGraphs.unretainedGraph(of: task, remembering: &taskGraphMemo)
    }

    // MARK: Reporting

    /// A read being reported: its place among the reads of the thread, what it reports to, and the
    /// time its body took and the bodies it read took.
    ///
    /// Trivial to copy: the key's arguments are kept alive by the `define` call being reported, which
    /// runs until the report ends, and the observation by the graph the read is made in, or, for the
    /// read that opens the graph (which ends after it), by the frame (see ``ownsObservation``).
    struct TraceFrame {
        let sequence: UInt64
        let key: DefinitionKey
        let scope: Scope
        /// Where the read gets its instance when it builds nothing, looked up before it ran.
        let source: Resolution.Source
        let observation: Unmanaged<Observation>
        /// Whether ``observation`` is retained by hand, by ``beginReport(_:scope:source:to:inGraph:)``,
        /// and released by ``endReport(instance:source:)`` or ``cancelReport()``: for a read that
        /// opens a graph, which ends after the graph has closed. A read in the graph refers to the
        /// graph's observation, which the graph keeps until it closes, after its reports have ended
        /// (``OpenGraph/reportFloor``).
        let ownsObservation: Bool
        /// When the body started (monotonic nanoseconds), once it has.
        var start: UInt64 = 0
        /// How long the body ran, once it has returned: hooks and `afterAllInjections` steps that
        /// run later, while the read is still reported, don't count.
        var nanoseconds: UInt64 = 0
        var ran = false
        /// How long the bodies of the reads it made ran.
        var childNanoseconds: UInt64 = 0
        /// ``childNanoseconds`` when the body returned.
        var childNanosecondsAtReturn: UInt64 = 0
    }

    /// Starts reporting a read of `key` in `scope` to `observation`: pushes its trace frame. A read
    /// `inGraph` reports to the graph's observation, which the graph keeps; any other opens a graph
    /// that closes before the report ends, so the report keeps the observation itself.
    func beginReport(
        _ key: DefinitionKey,
        scope: Scope,
        source: Resolution.Source,
        to observation: Unmanaged<Observation>,
        inGraph: Bool
    ) {
        if !inGraph { _ = observation.retain() }
        traceFrames.append(
            TraceFrame(
                sequence: assemblies_next_resolution_sequence(),
                key: key,
                scope: scope,
                source: source,
                observation: observation,
                ownsObservation: !inGraph
            )
        )
    }

    /// Drops the report of the read on top of ``traceFrames`` without delivering it: a task's read that
    /// waits, and reports when it decides again.
    func cancelReport() {
        let top = traceFrames[traceFrames.count - 1]
        traceFrames.removeLast()
        if top.ownsObservation { top.observation.release() }
    }

    /// The body of the read on top of ``traceFrames`` starts now.
    func bodyStartsInReportedRead() {
        traceFrames[traceFrames.count - 1].start = Clock.nanoseconds()
    }

    /// The body of the read on top of ``traceFrames`` has returned, or thrown: its time is taken.
    func bodyReturnedInReportedRead() {
        let now = Clock.nanoseconds()
        traceFrames.updateLast { frame in
            frame.nanoseconds = now &- frame.start
            frame.ran = true
            frame.childNanosecondsAtReturn = frame.childNanoseconds
        }
    }

    /// Ends reporting the read on top of ``traceFrames``, which returned `instance` (nil for a value,
    /// or when its body threw), from `source` (nil: the source looked up before it ran): delivers it
    /// to the observation, in a graph of its own (see ``inGraphOfItsOwn(_:)``), so that reads the
    /// observer makes never join the graph being built. They are not reported.
    func endReport(instance: ObjectIdentifier?, source: Resolution.Source?) {
        // The frames are read in place, field by field: a trace frame is 20 words, and copying the
        // frame and its parent out whole cost more than the rest of the report.
        let top = traceFrames.count - 1
        let parent = top - 1
        let observation = traceFrames[top].observation
        let ownsObservation = traceFrames[top].ownsObservation
        let nanoseconds = traceFrames[top].nanoseconds
        if parent >= 0 {
            traceFrames[parent].childNanoseconds &+= nanoseconds
        }
        var parentKey = parent >= 0 ? traceFrames[parent].key : nil
        parentKey?.arguments = nil
        let resolution = Resolution(
            scope: traceFrames[top].scope,
            depth: top,
            source: source ?? traceFrames[top].source,
            instance: instance,
            nanoseconds: nanoseconds,
            ownNanoseconds: nanoseconds &- min(nanoseconds, traceFrames[top].childNanosecondsAtReturn),
            threadNumber: thread.number,
            threadName: thread.nameForReports,
            key: StoredKey(traceFrames[top].key),
            parentKey: parentKey,
            sequence: traceFrames[top].sequence,
            parentSequence: parent >= 0 ? traceFrames[parent].sequence : nil
        )
        traceFrames.removeLast()
        let wasReporting = thread.isReporting
        thread.isReporting = true
        defer { thread.isReporting = wasReporting }
        inGraphOfItsOwn { observation._withUnsafeGuaranteedRef { $0.deliver(resolution, on: thread) } }
        if ownsObservation { observation.release() }
    }

    /// Where a read of the object-graph definition `key` that doesn't build it gets its instance.
    @inline(__always)
    private func sourceInGraph(of key: DefinitionKey) -> Resolution.Source {
        let found = entries.find(key).index
        let isDone = found >= 0 && entries.isCurrent(found) && entries.entry(found).pointee.state == .done
        return isDone && graph.familyID != 0 ? .objectGraph : .inFlight
    }

    /// Where a read of `key` that doesn't build it gets its instance, looked up before it runs.
    func source(
        of key: DefinitionKey,
        scope: Scope,
        in store: SingletonStore,
        of family: Family
    ) -> Resolution.Source {
        switch scope.kind {
        case .prototype:
            // A prototype is only reused by a back-reference to it from a direct dependency.
            return .inFlight
        case .objectGraph:
            return sourceInGraph(of: key)
        case .singleton, .weakSingleton, .resettable:
            if scope.kind == .singleton && store === family.singletons && cachedSingletonObject(key, in: family) != nil
            {
                return .stored  // from this thread's caches, without the store's lock
            }
            return store.hasFinished(key) ? .stored : .inFlight
        }
    }
}
