internal import CAssemblies

// How a read runs: an entry (``Resolver/enterObjectGraph(_:in:)`` and its siblings, or
// ``Resolver/decide(_:scope:in:suspends:)`` for an async read) decides what the read gets, or pushes
// the frame its body builds the instance in; ``Resolver/leave(_:returning:)`` finishes the frame with
// the instance, and ``Resolver/bodyThrew(at:)`` undoes it. The synchronous getters and the async
// reads (``AsyncReading``) share all of it. Nothing here is generic.

extension Resolver {
    /// What a read does next (see ``decide(_:scope:in:suspends:)``).
    enum Decision {
        /// Hand back this instance: nothing is built.
        case instance(AnyObject)
        /// Run the body in this frame, then leave it.
        case build(DefinitionHandle)
        /// A task's read of a stored definition that another thread or task is building: wait for the
        /// slot to change, then decide again.
        case wait(SingletonSlot, SingletonStore)
    }

    /// What a frame's leaving does beyond finishing its instance, set by the read that pushed it.
    struct FrameFlags: OptionSet {
        let rawValue: UInt8

        /// The body added hooks (``Definition/afterWiring(_:)``, ``Definition/afterAllInjections(_:)``).
        static let hasHooks = FrameFlags(rawValue: 1 << 0)
        /// It builds a stored definition's slot, the innermost of ``building``.
        static let buildsSlot = FrameFlags(rawValue: 1 << 1)
        /// It is the first frame of a graph its read opened: leaving it finishes the graph.
        static let closesGraph = FrameFlags(rawValue: 1 << 2)
        /// Its read is reported (``traceFrames``): leaving it ends the report.
        static let endsReport = FrameFlags(rawValue: 1 << 3)
        /// Its read installed this resolver as the thread's current one: leaving it puts back the
        /// resolver it replaced (see ``install(over:)``).
        static let uninstalls = FrameFlags(rawValue: 1 << 4)
        /// Its in-flight instance was handed out while it was being wired, and who took it is
        /// recorded (see ``Handouts/takers``): set for a frame whose body can throw (``mayThrow``), or whose
        /// instance another thread took — the frames ``undo(_:)`` may find.
        static let handedOut = FrameFlags(rawValue: 1 << 5)
        /// The read that took it came through other definitions (see ``Handouts/takerPaths``).
        static let handedOutInALongerCycle = FrameFlags(rawValue: 1 << 6)
        /// Its body can throw (see ``bodyMayThrow(at:)``): only then is the taker of its in-flight
        /// instance recorded, to be named if the body throws after handing it out.
        static let mayThrow = FrameFlags(rawValue: 1 << 7)
    }

    // MARK: Entering

    /// Decides a synchronous read of `key`, in `scope`, of `family` on this resolver: the instance
    /// it hands back, or the frame its body builds one in.
    ///
    /// A getter calls the entry for its scope's kind (its scope is nearly always a literal), so that
    /// each is small: for a key with no injected object and no arguments, through
    /// ``enterObjectGraphRead(of:hash:name:place:file:type:)``, which makes the key of its parts; else
    /// here, with the whole key. The common reads — an object-graph definition or a prototype in the
    /// graph open here, not intercepted — are decided without leaving the entry. The others go to
    /// ``decideSlowly(_:scope:in:suspends:)``.
    @usableFromInline
    func enterObjectGraph(_ key: DefinitionKey, in family: Family) -> Entered {
        decideObjectGraph(key, in: family)
    }

    /// What ``enterObjectGraph(_:in:)`` does, there and in ``enterObjectGraph(on:_:in:)``.
    @inline(__always)
    fileprivate func decideObjectGraph(_ key: DefinitionKey, in family: Family) -> Entered {
        if graph.familyID == family.id && !graph.isIntercepting {
            return enterShared(key)
        }
        if opensGraphQuickly(of: family) {
            beginGraph(of: family)
            return closingGraph(enterShared(key))
        }
        return enterOutsideGraph(key, scope: .objectGraph, in: family)
    }

    /// ``enterObjectGraph(_:in:)`` for a prototype.
    @usableFromInline
    func enterPrototype(_ key: DefinitionKey, in family: Family) -> Entered {
        decidePrototype(key, in: family)
    }

    /// What ``enterPrototype(_:in:)`` does, there and in ``enterPrototype(on:_:in:)``.
    @inline(__always)
    fileprivate func decidePrototype(_ key: DefinitionKey, in family: Family) -> Entered {
        if graph.familyID == family.id && !graph.isIntercepting {
            return enterPrototypeQuickly(key) ?? enterPrototype(key)
        }
        if opensGraphQuickly(of: family) {
            // No frame to compare the key with. (The quick case of a read in a graph, inlined here
            // too, would make the callers too large for the inliner, which would leave it out of
            // line.)
            beginGraph(of: family)
            return closingGraph(enterFirstPrototype(key))
        }
        return enterOutsideGraph(key, scope: .prototype, in: family)
    }

    /// A read of an object-graph definition or a prototype that is neither in the graph open here
    /// nor the first of a plain graph: in an async body, nearly always, which joins its task's graph
    /// (``enterTaskGraph(_:scope:in:)``); else ``enterSlowly(_:scope:in:)``.
    @inline(__always)
    private func enterOutsideGraph(_ key: DefinitionKey, scope: Scope, in family: Family) -> Entered {
        if !family.isIntercepted && !family.openAsyncGraphs.isZero {
            return enterTaskGraph(key, scope: scope, in: family)
        }
        return enterSlowly(key, scope: scope, in: family)
    }

    /// A read joining `taskGraph`: decided on its resolver, installed here until the frame it
    /// builds in is left. When the task's graph is of another family — its body reads back a
    /// family whose graph it is nested in — the read crosses between families: it is decided in a
    /// graph of its own on that graph's spare, as on a thread, installed here in the same way.
    func join(
        _ taskGraph: Unmanaged<AsyncGraph>,
        reading key: DefinitionKey,
        scope: Scope,
        in family: Family
    ) -> Decision {
        taskGraph._withUnsafeGuaranteedRef { $0.unretainedResolver }._withUnsafeGuaranteedRef { graphResolver in
            guard graphResolver.graph.familyID == family.id else {
                return graphResolver.decideOnSpare(key, scope: scope, in: family, suspends: false, installedOver: self)
            }
            return graphResolver.decide(key, scope: scope, in: family, suspends: false, installedOver: self)
        }
    }

    /// Decides a top-level read made while this resolver is busy with another family's graph, or
    /// releasing one, or in a graph of its own: on the spare, in a graph of its own (which crosses
    /// between families unless it is of its own), the spare installed over `current`.
    private func decideOnSpare(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        suspends: Bool,
        installedOver current: Resolver
    ) -> Decision {
        spare(crossingWith: graph.familyID == Self.graphsOfTheirOwn ? nil : key)
            .decide(key, scope: scope, in: family, suspends: suspends, installedOver: current)
    }

    /// Decides a read on this resolver, installed over `current` until the frame it builds in is left.
    private func decide(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        suspends: Bool,
        installedOver current: Resolver
    ) -> Decision {
        install(over: current)
        return keepingInstalled(decide(key, scope: scope, in: family, suspends: suspends))
    }

    /// An object-graph read in the graph open here: the two common cases quickly, every other one (a
    /// first read of the key, a back-reference, an explicit key...) by `enter`, out of line — which
    /// is given the table's answer for the key rather than look it up again, unless it checks the
    /// read for a captive dependency first (a report may run reads of its own).
    @inline(__always)
    private func enterShared(_ key: DefinitionKey) -> Entered {
        let lookup = entries.find(key)
        if let entered = enterSharedQuickly(key, found: lookup.index) {
            return entered
        }
        return isWatchingCaptives ? enter(key, scope: .objectGraph) : enter(key, scope: .objectGraph, lookup: lookup)
    }

    /// Whether a read of `family` is a top-level read on this resolver that opens a plain graph of
    /// the family here: nothing intercepts the family, no task may have a graph of it to join, and
    /// this resolver is in no graph. (Any other top-level read is decided by
    /// ``decideSlowly(_:scope:in:suspends:)``.)
    @inline(__always)
    private func opensGraphQuickly(of family: Family) -> Bool {
        graph.familyID == 0 && !graph.isClosing && !family.isIntercepted && family.openAsyncGraphs.isZero
    }

    /// `entered`, decided as the first read of the graph just opened: its frame closes the graph when
    /// it is left, or the graph is finished now when it builds nothing.
    private func closingGraph(_ entered: Entered) -> Entered {
        switch entered {
        case .build(let handle): frames[handle.frame].flags.insert(.closesGraph)
        case .instance: finishGraph()
        }
        return entered
    }

    /// ``enterObjectGraph(_:in:)`` for a stored definition: a singleton, a weak singleton or a
    /// resettable scope's instance; and for the reads of an object-graph definition or a prototype
    /// that ``enterObjectGraph(_:in:)`` and ``enterPrototype(_:in:)`` leave.
    @usableFromInline
    @inline(never)
    func enterSlowly(_ key: DefinitionKey, scope: Scope, in family: Family) -> Entered {
        Entered(decideSlowly(key, scope: scope, in: family, suspends: false))
    }

    /// A synchronous read of an object-graph definition or a prototype that may join its task's
    /// graph: a read in an async body. Of a family nothing intercepts and a scope without caches, it
    /// is the first thing `decideSlowly` looks for: looked for first, it skips the rest.
    @inline(never)
    private func enterTaskGraph(_ key: DefinitionKey, scope: Scope, in family: Family) -> Entered {
        if let taskGraph = taskGraphToJoin(readingFrom: family) {
            return Entered(join(taskGraph, reading: key, scope: scope, in: family))
        }
        return Entered(decideSlowly(key, scope: scope, in: family, suspends: false))
    }

    /// Decides a read, for a task that can wait: the entries with a ``Decision/wait(_:_:)``.
    func decide(_ key: DefinitionKey, scope: Scope, in family: Family, suspends: Bool) -> Decision {
        if let entered = enterQuickly(key, scope: scope, in: family) {
            return Decision(entered)
        }
        return decideSlowly(key, scope: scope, in: family, suspends: suspends)
    }

    /// The decision of a read in the graph open on this resolver, when it is one of the two common
    /// cases: an object-graph instance this graph already has, or a key this thread has read before
    /// read for the first time in this graph (for an object-graph definition or a prototype); nil
    /// for every other read.
    @inline(__always)
    private func enterQuickly(_ key: DefinitionKey, scope: Scope, in family: Family) -> Entered? {
        guard graph.familyID == family.id && !graph.isIntercepting else { return nil }
        switch scope.kind {
        case .objectGraph: return enterSharedQuickly(key, found: entries.find(key).index)
        case .prototype: return enterPrototypeQuickly(key)
        case .singleton, .weakSingleton, .resettable: return nil
        }
    }

    /// The quick cases of an object-graph read in the graph open here (see ``enterQuickly(_:scope:in:)``),
    /// given the number of its key in the table, or -1 (see ``GraphEntries/find(_:)``).
    @inline(__always)
    private func enterSharedQuickly(_ key: DefinitionKey, found: Int) -> Entered? {
        guard found >= 0 && !isWatchingCaptives else { return nil }
        let entry = entries.entry(found)
        guard !entry.pointee.isSpecial else { return nil }
        if entries.isCurrent(found) {
            guard entry.pointee.state == .done else { return nil }
            return .instance(entry.pointee.object!.retain())
        }
        guard canPushWithoutChecks && entries.startBuildingQuickly(found) else { return nil }
        let frame = pushWithoutChecks(key, entry: found)
        entry.pointee.frame = Int32(truncatingIfNeeded: frame)
        return .build(DefinitionHandle(resolver: self, frame: frame))
    }

    /// A prototype read that opens a plain graph: a new frame, the first, unless the key is explicit
    /// or the frame needs the checks of ``push(_:entry:scope:)``.
    @inline(__always)
    private func enterFirstPrototype(_ key: DefinitionKey) -> Entered {
        guard !key.isExplicit && canPushWithoutChecks else { return enterPrototype(key) }
        return .build(DefinitionHandle(resolver: self, frame: frames.push(key, scope: .prototype)))
    }

    /// The quick case of a prototype read in the graph open here: a new frame for a key that is not
    /// the top frame's, nor the one below it (a back-reference).
    @inline(__always)
    private func enterPrototypeQuickly(_ key: DefinitionKey) -> Entered? {
        let top = frames.count &- 1
        guard !key.isExplicit && canPushWithoutChecks else { return nil }
        if top >= 0 {
            if frame(top, builds: key) { return nil }
            if top >= 1 && frame(top &- 1, builds: key) { return nil }
        }
        return .build(DefinitionHandle(resolver: self, frame: frames.push(key, scope: .prototype)))
    }

    /// Decides every read ``enterQuickly(_:scope:in:)`` leaves: a singleton from this thread's
    /// caches; the read an ``Overrides`` replacement captures; a read outside any graph of the
    /// family (a top-level read, in the current task's async graph when it is made in an async body,
    /// else in a new graph, on this resolver or its spare); an intercepted read (overridden, reported);
    /// and every other read in the graph.
    @inline(never)
    func decideSlowly(_ key: DefinitionKey, scope: Scope, in family: Family, suspends: Bool) -> Decision {
        // A graph opened while intercepted reports each of its reads, cached singletons included. A
        // key with arguments is never in the thread's caches: in a graph of the family, the claim
        // looks the store up, once.
        if scope.kind == .singleton && !(graph.familyID == family.id && (graph.isIntercepting || key.hasArguments))
            && (!family.isIntercepted || Self.readsUnintercepted(family)),
            let object = cachedSingletonObject(key, in: family)
        {
            return .instance(object)
        }
        if family.isIntercepted, let captured = capturedRead(key, of: family) {
            return .instance(captured)
        }
        let isInGraph = graph.familyID == family.id
        if !isInGraph, let taskGraph = taskGraphToJoin(readingFrom: family) {
            // A synchronous read in an async body, or below it: it joins the task's graph.
            return join(taskGraph, reading: key, scope: scope, in: family)
        }
        if !isInGraph && (graph.familyID != 0 || graph.isClosing) {
            return decideOnSpare(key, scope: scope, in: family, suspends: suspends, installedOver: self)
        }
        // Here, a read outside the graph is a top-level read: no graph is open on this resolver. One
        // that nothing intercepts here (overrides another task applies, say) opens a plain graph.
        if isInGraph ? graph.isIntercepting : family.isIntercepted && !Self.readsUnintercepted(family) {
            return decideIntercepted(key, scope: scope, in: family, isInGraph: isInGraph, suspends: suspends)
        }
        if isInGraph {
            return decideInGraph(key, scope: scope, suspends: suspends)
        }
        return decideInNewGraph(
            key,
            scope: scope,
            in: family,
            keepingSingletonsIn: family.singletons,
            overriddenBy: nil,
            observedBy: nil,
            suspends: suspends
        )
    }

    /// Opens a graph of `family` on this resolver, which keeps singletons in `store` (the family's,
    /// or those of `context`, the task's overrides of the family) and reports its reads to
    /// `observation`, and decides `key` in it: the graph is finished when the read's frame is left,
    /// or at once when the read builds nothing.
    func decideInNewGraph(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        keepingSingletonsIn store: SingletonStore,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?,
        suspends: Bool
    ) -> Decision {
        if family.isIntercepted { family.requireOpen(reading: key) }
        beginGraph(of: family, keepingSingletonsIn: store, overriddenBy: context, observedBy: observation)
        let decision =
            enterQuickly(key, scope: scope, in: family).map(Decision.init)
            ?? decideInGraph(key, scope: scope, suspends: suspends)
        switch decision {
        case .build(let handle):
            frames[handle.frame].flags.insert(.closesGraph)
        case .instance:
            finishGraph()
        case .wait:
            // A task waits in the async graph it has opened already, never in a new one.
            preconditionFailure("Assemblies: a read waited in a graph it opened")
        }
        return decision
    }

    /// Decides a read in the graph open on this resolver, by scope.
    func decideInGraph(_ key: DefinitionKey, scope: Scope, suspends: Bool) -> Decision {
        let entered: Entered
        switch scope.kind {
        case .objectGraph: entered = enterShared(key)
        case .prototype: entered = enterPrototype(key)
        case .singleton, .weakSingleton, .resettable: return decideStored(key, scope: scope, suspends: suspends)
        }
        return Decision(entered)
    }

    // MARK: Installing

    /// Makes this resolver — a spare, or a task's async graph's — the thread's current one in place of
    /// `current`, for a read whose frame puts `current` back when it is left (see ``keepingInstalled(_:)``).
    func install(over current: Resolver) {
        let over = Unmanaged.passUnretained(current)
        if thread.isTask && !current.thread.isTask {
            // A task's graph joined by a synchronous read of a thread: the task's synchronous reads
            // check the stack of that thread, and a slot the thread owns below this read is
            // recognised (see ``ResolverThread/isBelow(_:)``). The host it replaces goes into the
            // installation.
            runsOnStack(current.thread.currentStack)
            installation = Installation(over: over, joinedThread: .init(replacedHost: thread.host))
            thread.host = ObjectIdentifier(current.thread)
        } else {
            installation = Installation(over: over)
        }
        assemblies_set_resolver(Unmanaged.passUnretained(self).toOpaque())
    }

    /// This resolver's spare, made the first time one is needed; it keeps it.
    private func makeSpare() -> Resolver {
        let spare = Resolver(thread: thread)
        spare.outer = self
        self.spare = spare
        return spare
    }

    /// Puts back the resolver this one was installed over (see ``install(over:)``).
    func uninstall() {
        guard var installation = installation.take() else {
            preconditionFailure("Assemblies: a resolver left that was never installed")
        }
        if crossing.key != nil {
            crossing.key = nil
        }
        if let joined = installation.joinedThread.take() {
            thread.host = joined.replacedHost
        }
        assemblies_set_resolver(installation.over.toOpaque())
    }

    /// `decision`, made on this resolver just installed: it stays installed until the frame it
    /// builds in is left, or is uninstalled now when it builds nothing.
    func keepingInstalled(_ decision: Decision) -> Decision {
        switch decision {
        case .build(let handle):
            // The frame is this resolver's: leaving it puts back what this installation replaced.
            precondition(
                handle.resolver.toOpaque() == Unmanaged.passUnretained(self).toOpaque(),
                "Assemblies: a read was built on another resolver than the one installed for it"
            )
            frames[handle.frame].flags.insert(.uninstalls)
        case .instance, .wait:
            uninstall()
        }
        return decision
    }

    /// This resolver's spare, ready for a top-level read of another family that crosses over from a
    /// read of `key` (counted, to stop a cycle between families), or nil for a read that is only
    /// meant to start a graph of its own.
    func spare(crossingWith key: DefinitionKey?) -> Resolver {
        let spare = self.spare ?? makeSpare()
        precondition(spare.installation == nil, "Assemblies: a spare resolver was asked for while in use")
        if let key {
            spare.crossing.key = StoredKey(key)
        }
        spare.crossing.depth = key == nil ? crossing.depth : crossing.depth + 1
        if spare.crossing.depth > Self.crossingLimit {
            Failure.crossFamilyCycle(spare.chain.compactMap { $0.crossing.key?.key }.reversed())
        }
        return spare
    }

    // MARK: Leaving

    /// Finishes the frame `index` — the innermost — with the instance its body returned: the graph
    /// shares it from now on (an object-graph definition's), its hooks run, and what the read that
    /// pushed it began ends (see ``FrameFlags``).
    ///
    /// `result` is not retained: the caller holds the instance for the call.
    @usableFromInline
    func leave(_ index: Int, returning result: Unmanaged<AnyObject>) {
        let frame = frames.address(index)
        // `mayThrow` alone needs nothing done: a throwing read leaves as fast as any other.
        guard frame.pointee.object == nil && frame.pointee.flags.subtracting(.mayThrow).isEmpty else {
            return leaveFlagged(index, returning: result)
        }
        pop(index, returning: result)
    }

    /// ``leave(_:returning:)`` for a frame with ``FrameFlags`` or a registered instance: the two
    /// common cases here, each a frame whose body registered nothing and that has one flag, and
    /// every other one in ``leaveSlowly(_:returning:)``.
    @inline(never)
    private func leaveFlagged(_ index: Int, returning result: Unmanaged<AnyObject>) {
        if frames[index].object == nil {
            switch frames[index].flags.subtracting(.mayThrow) {
            case .closesGraph:
                // The first frame of a plain graph: a top-level read.
                pop(index, returning: result)
                return finishGraph()
            case .uninstalls:
                // A synchronous read in an async body, which joined its task's graph.
                pop(index, returning: result)
                return uninstall()
            default:
                break
            }
        }
        result._withUnsafeGuaranteedRef { leaveSlowly(index, returning: $0) }
    }

    /// Pops the frame `index`, whose body registered nothing and added no hooks: an object-graph
    /// definition's entry keeps `result` for the rest of the graph.
    @inline(__always)
    private func pop(_ index: Int, returning result: Unmanaged<AnyObject>) {
        let frame = frames.address(index)
        frames.count = index
        if frame.pointee.entry >= 0 {
            let entry = entries.entry(Int(frame.pointee.entry))
            entry.pointee.state = .done
            entry.pointee.object = result.retain()
        }
        if index == handouts.lowest {
            handedOutFrameLeft()
        }
    }

    /// ``leave(_:returning:)`` with an instance the engine made itself (an override's double).
    func leave(_ index: Int, returning result: AnyObject) {
        withExtendedLifetime(result) { leave(index, returning: Unmanaged.passUnretained(result)) }
    }

    /// ``leave(_:returning:)`` for a frame whose body registered an instance, or that has
    /// ``FrameFlags`` other than one of `closesGraph` and `uninstalls` alone.
    @inline(never)
    func leaveSlowly(_ index: Int, returning result: AnyObject) {
        let flags = frames[index].flags
        if flags.contains(.endsReport) {
            bodyReturnedInReportedRead()
        }
        let type = key(ofFrame: index).type
        let slot = flags.contains(.buildsSlot) ? building.last!.slot : nil
        if let slot {
            if slot.scope.kind == .weakSingleton && result is AnyValueBox {
                Failure.weakSingletonOfValue(key(ofFrame: index))
            }
            // Hooks, leaving a frame whose body registered an instance, and settling what waited
            // for a handed-out frame (which releases instances, whose deinit may read the slot) may
            // hand the instance out before it is published: the slot keeps it meanwhile. Otherwise
            // nothing runs before `finishBuilding` publishes it or holds it back, which keeps it then.
            if frames[index].object != nil || flags.contains(.hasHooks) || index == handouts.lowest {
                bodyReturned(result, in: slot)
            }
        }
        if frames[index].object == nil && !flags.contains(.hasHooks) {
            pop(index, returning: Unmanaged.passUnretained(result))
        } else {
            leaveRegistered(index, returning: result)
        }
        if let slot {
            finishBuilding(slot, result)
        }
        if flags.contains(.closesGraph) {
            finishGraph()
        }
        if flags.contains(.endsReport) {
            endReport(instance: identity(ofKept: result, readAs: type), source: .built)
        }
        if flags.contains(.uninstalls) {
            uninstall()
        }
    }

    /// Marks the frame `index` as built by a body that can throw, before the body runs: a getter
    /// whose body throws nothing (its error type is `Never`) doesn't call it.
    @usableFromInline
    @inline(never)
    func bodyMayThrow(at index: Int) {
        frames[index].flags.insert(.mayThrow)
    }

    /// Undoes the frame `index` — the innermost — whose body threw: nothing it built half stays in
    /// the graph or is published, and what the read that pushed it began ends.
    @usableFromInline
    @inline(never)
    func bodyThrew(at index: Int) {
        let flags = frames[index].flags
        if flags.contains(.endsReport) {
            bodyReturnedInReportedRead()
        }
        undo(index)
        if flags.contains(.closesGraph) {
            abandonGraph()
        }
        if flags.contains(.endsReport) {
            endReport(instance: nil, source: .failed)
        }
        if flags.contains(.uninstalls) {
            uninstall()
        }
    }
}

/// ``Resolver/enterObjectGraph(_:in:)`` on `resolver`, for ``enterObjectGraphRead(of:hash:name:place:file:type:)``:
/// a function, which takes the resolver as an argument, borrowed, not as `self`.
func enterObjectGraph(on resolver: Resolver, _ key: DefinitionKey, in family: Family) -> Entered {
    resolver.decideObjectGraph(key, in: family)
}

/// ``Resolver/enterPrototype(_:in:)`` on `resolver` (see ``enterObjectGraph(on:_:in:)``).
func enterPrototype(on resolver: Resolver, _ key: DefinitionKey, in family: Family) -> Entered {
    resolver.decidePrototype(key, in: family)
}

extension Entered {
    /// A synchronous read's decision: it never waits.
    init(_ decision: Resolver.Decision) {
        switch decision {
        case .instance(let object): self = .instance(.passRetained(object))
        case .build(let handle): self = .build(handle)
        case .wait: preconditionFailure("Assemblies: a synchronous read was asked to wait")
        }
    }
}

extension Resolver.Decision {
    /// The identity of the instance handed back, read as `type` (see ``identity(ofKept:readAs:)``):
    /// borrowed from the decision, not retained.
    func identity(readAs type: Any.Type) -> ObjectIdentifier? {
        guard case .instance(let object) = self else { return nil }
        return Assemblies.identity(ofKept: object, readAs: type)
    }

    init(_ entered: Entered) {
        switch entered {
        case .instance(let object): self = .instance(object.takeRetainedValue())
        case .build(let handle): self = .build(handle)
        }
    }
}
