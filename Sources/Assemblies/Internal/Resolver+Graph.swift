internal import CAssemblies

// The object graph: opening and closing it, entering and leaving definitions, the frames and
// entries, cycles.

extension Resolver {
    // MARK: The graph's lifetime

    /// Opens a graph of `family` on this resolver, which keeps singletons in `store` (the family's,
    /// or those of `context`, the task's overrides of the family) and reports its reads to
    /// `observation`.
    func beginGraph(
        of family: Family,
        keepingSingletonsIn store: SingletonStore,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?
    ) {
        graph.familyID = family.id
        graph.family = family
        graph.store = store
        entries.beginGraph()
        if context != nil || observation != nil {
            graph.isIntercepting = true
            graph.interception = Interception(
                context: context,
                contextSingletons: context == nil ? nil : store,
                observation: observation
            )
            graph.observation = observation.map(Unmanaged.passUnretained)
            graph.reportFloor = traceFrames.count
        }
    }

    /// Opens a graph of `family` on this resolver as the current task sees the family: with its
    /// singletons and overrides when the task overrides it, reported when it is observed.
    func beginGraph(asTheTaskSees family: Family) {
        let context = family.isIntercepted ? OverrideContext.innermost(for: family) : nil
        beginGraph(
            of: family,
            keepingSingletonsIn: context?.singletons() ?? family.singletons,
            overriddenBy: context,
            observedBy: family.isIntercepted ? family.observation : nil
        )
    }

    /// Opens a plain graph of `family` on this resolver: not overridden, not observed.
    func beginGraph(of family: Family) {
        graph.familyID = family.id
        graph.family = family
        graph.store = family.singletons
        entries.beginGraph()
    }

    /// Runs the deferred steps (which may read more definitions into the graph and queue more
    /// steps), then ends the graph.
    func finishGraph() {
        if !hooks.steps.isEmpty {
            runDeferredSteps()
        }
        closeGraph()
    }

    func runDeferredSteps() {
        var index = 0
        while index < hooks.steps.count {
            hooks.steps[index]()
            index += 1
        }
        hooks.steps.removeAll(keepingCapacity: true)
        if !held.untilSteps.isEmpty {
            let items = held.untilSteps
            held.untilSteps.removeAll()
            stepsFinished(abandoned: false)
            settle(items)
        }
    }

    /// Ends the graph: the resolver keeps none of its instances, and keeps its keys unless there are
    /// more than ``GraphEntries/keyLimit``.
    func closeGraph() {
        // Releasing instances runs their deinit, which may read assemblies again: that starts a new
        // top-level resolution on the spare resolver.
        graph.isClosing = true
        if !handouts.takerPaths.isEmpty {
            // Every frame has left: what they recorded is of no more use.
            handouts.takerPaths.removeAll()
        }
        if handouts.lowest != .max || !held.untilHandoutsFinish.isEmpty {
            // Every frame has left, so these were settled already; this only keeps a mistake in
            // that bookkeeping from holding a singleton back for ever.
            assertionFailure("Assemblies: a graph closed with instances still held back")
            handouts.lowest = .max
            let items = held.untilHandoutsFinish
            held.untilHandoutsFinish.removeAll()
            settle(items)
        }
        if graph.isIntercepting {
            // Only an intercepted graph has an override context, its singletons or an observation.
            graph.isIntercepting = false
            // The reports of the graph's reads refer to its observation unretained: they have ended.
            precondition(
                traceFrames.count <= graph.reportFloor,
                "Assemblies: a graph closed with its reads still reported"
            )
            graph.observation = nil
            // Released after the access has ended: an observer's deinit is user code.
            let ended = graph.interception.take()
            _ = ended
        }
        graph.familyID = 0
        graph.family = nil
        graph.store = nil
        if graph.arguments != nil {
            // Released after the access has ended: an argument's deinit is user code.
            let ended = graph.arguments.take()
            _ = ended
        }
        if !argumentEntries.isEmpty {
            for entry in argumentEntries {
                entries.dropArguments(at: Int(entry.index))
            }
            argumentEntries.removeAll(keepingCapacity: true)
        }
        // A frame with an entry finds its key in the table, which may now forget its keys.
        assert(frames.count == 0, "Assemblies: a graph closed with frames still open")
        entries.closeGraph()
        frames.checkFromTheStart()
        if !held.aliveUntilClose.isEmpty {
            // Released after the access to `held` has ended: a deinit may read the family again.
            let released = held.aliveUntilClose
            held.aliveUntilClose.removeAll()
            _ = released
        }
        graph.isClosing = false
        if !held.toDisposeAtClose.isEmpty {
            disposeDropped()
        }
    }

    /// Disposes of the instances a reset dropped while this graph built them, the most recently
    /// built first, once the graph is closed (their `dispose()` may read the family again).
    func disposeDropped() {
        let dropped = held.toDisposeAtClose
        held.toDisposeAtClose.removeAll()
        for object in dropped.reversed() {
            (unboxed(object) as? Disposable)?.dispose()
        }
    }

    /// Runs `body`, whose reads are top-level reads with graphs of their own even when a graph is
    /// open on this thread: how a property wrapper read inside a definition body resolves, and what
    /// an observer or a captive-dependency handler reads.
    ///
    /// While `body` runs, the graph open here belongs to no family (``graphsOfTheirOwn``): each read
    /// `body` makes leaves it for the spare, as a read of another family does, in a graph of its own
    /// — so a `body` that reads nothing, an observer's most often, costs two stores.
    func inGraphOfItsOwn<Result>(_ body: () -> Result) -> Result {
        if graph.familyID == 0 && !graph.isClosing {
            return body()
        }
        let family = graph.familyID
        graph.familyID = Self.graphsOfTheirOwn
        defer { graph.familyID = family }
        return body()
    }

    /// What ``OpenGraph/familyID`` is while ``inGraphOfItsOwn(_:)`` runs its body: no family's ID (they
    /// count up from 1).
    static let graphsOfTheirOwn: UInt64 = .max

    // MARK: Entering definitions

    /// Decides what a read of a shared definition does in the current graph: build it in a new
    /// frame, or hand back an instance the graph has — built, or being wired (a back-reference).
    /// Stops with a precise message when the read can't be served.
    @inline(never)
    func enter(_ key: DefinitionKey, scope: Scope.Kind) -> Entered {
        if isWatchingCaptives && scope == .objectGraph {
            checkCaptive(key, scope: .objectGraph)
        }
        return enter(key, scope: scope, lookup: entries.find(key))
    }

    /// ``enter(_:scope:)`` once the read is checked (for a captive dependency) and its key looked up
    /// in the table: `lookup` is what ``GraphEntries/find(_:)`` returns for it.
    @inline(never)
    func enter(_ key: DefinitionKey, scope: Scope.Kind, lookup: (index: Int, slot: Int)) -> Entered {
        if lookup.index < 0 && scope == .objectGraph, let entered = enterFirstQuickly(key, slot: lookup.slot) {
            return entered
        }
        let found = entry(for: key, scope: scope, lookup: lookup)
        let entry = entries.entry(found)
        if entry.pointee.state == .building && entry.pointee.frame < 0 {
            let frame = push(key, entry: found)
            entry.pointee.frame = Int32(frame)
            return .build(DefinitionHandle(resolver: self, frame: frame))
        }
        if key.isExplicit {
            checkExplicitKey(key, at: found, scope: scope)
        }
        let isMethodWithParameters = entry.pointee.isSpecial && key.isMethodWithParameters
        if entry.pointee.state == .done {
            if isMethodWithParameters { Failure.methodReadTwice(key) }
            return .instance(entry.pointee.object!.retain())
        }
        let frame = Int(entry.pointee.frame)
        guard let object = frames[frame].object?.takeUnretainedValue() else {
            Failure.initializerCycle(chain(from: frame, to: key))
        }
        if isMethodWithParameters { Failure.methodReadTwice(key) }
        handOut(frame)
        warnIfValue(object, handedOutFrom: frame, to: key)
        return .instance(.passRetained(object))
    }

    /// The quick case of an object-graph read that ``enter(_:scope:)`` is left: the key's first read
    /// on this thread, which a thread's first graph makes of nearly every key. It is inserted at
    /// `slot`, where the table misses it, and a frame pushed, unless the key needs the checks of
    /// `enter`, or the table, the touched entries or the frames need to grow.
    @inline(__always)
    private func enterFirstQuickly(_ key: DefinitionKey, slot: Int) -> Entered? {
        guard !key.readsNeedChecks && canPushWithoutChecks,
            let index = entries.insertBuildingQuickly(key, slot: slot)
        else { return nil }
        let frame = pushWithoutChecks(key, entry: index)
        entries.entry(index).pointee.frame = Int32(truncatingIfNeeded: frame)
        return .build(DefinitionHandle(resolver: self, frame: frame))
    }

    /// The frame to build a prototype in, or the instance a back-reference gets: a prototype is a
    /// new instance, except when it is read straight back from one of its direct dependencies while
    /// it is being wired.
    @inline(never)
    func enterPrototype(_ key: DefinitionKey) -> Entered {
        let top = frames.count - 1
        if key.isExplicit || (top >= 0 && frame(top, builds: key)) {
            checkPrototypeRead(key)
        }
        if top >= 1 && frame(top - 1, builds: key) {
            return .instance(.passRetained(backReference(to: top - 1, key)))
        }
        return .build(DefinitionHandle(resolver: self, frame: push(key, entry: -1)))
    }

    /// The index of `key`'s entry in the current graph (see ``GraphEntries/index(of:scope:lookup:)``),
    /// where the table's `lookup` of the key found it or where it would go.
    func entry(for key: DefinitionKey, scope: Scope.Kind, lookup: (index: Int, slot: Int)) -> Int {
        let (found, isFirstInGraph) = entries.index(of: key, scope: scope, lookup: lookup)
        if isFirstInGraph {
            if key.isExplicit {
                // The family remembers an explicit key's type across graphs.
                graph.family?.checkExplicitKey(key)
            }
            // (The bit first: reading the list, even a nil one, retains it.)
            if key.hasArguments, key.arguments != nil {
                // A key with arguments is only ever found in the graph that stamped it (keys of
                // earlier graphs have dropped theirs), so the table's key refers to this list.
                argumentEntries.append((Int32(found), StoredKey(key)))
            }
        }
        return found
    }

    /// Checks a prototype read that may be misuse: an explicit key, or a prototype reading itself.
    @inline(never)
    func checkPrototypeRead(_ key: DefinitionKey) {
        if key.isExplicit { checkExplicitKeyWithoutEntry(key, scope: .prototype) }
        let top = frames.count - 1
        if top >= 0 && frame(top, builds: key) {
            // Reading itself: every new instance would read itself again.
            if frames[top].hasInstance {
                Failure.prototypeCycle(chain(from: top, to: key))
            }
            Failure.initializerCycle(chain(from: top, to: key))
        }
    }

    /// The in-flight instance a back-reference gets; it must have been registered.
    @inline(never)
    func backReference(to frame: Int, _ key: DefinitionKey) -> AnyObject {
        guard let object = frames[frame].object?.takeUnretainedValue() else {
            Failure.initializerCycle(chain(from: frame, to: key))
        }
        handOut(frame)
        warnIfValue(object, handedOutFrom: frame, to: key)
        return object
    }

    /// Records that the in-flight instance of `frame`, still being wired, was handed out to the
    /// body of the innermost definition of this resolver: what is finished above the frame waits for
    /// it (see ``Handouts/lowest``), and, when the frame's body can throw, its first taker is kept
    /// to be named if it throws afterwards (see ``Handouts/takers``). A body that can't throw is never undone,
    /// so its frame needs no record: most cycles pay nothing for it.
    @inline(__always)
    func handOut(_ frame: Int) {
        handouts.add(frame)
        if frames[frame].flags.intersection([.mayThrow, .handedOut]) == .mayThrow { recordHandout(of: frame) }
    }

    /// Records the first taker of `frame`'s in-flight instance: the innermost frame's definition,
    /// and the definitions between them when there are any.
    @inline(never)
    func recordHandout(of frame: Int) {
        let top = frames.count - 1
        record(key(ofFrame: top), asTakerOf: frame)
        if frame + 1 < top { recordPath(of: frame, (frame + 1..<top).map { key(ofFrame: $0) }) }
    }

    /// Records that the in-flight instance of `frame` was handed out to the body of a definition of
    /// a graph opened above this one on the thread, through `chain`: the definitions from `frame`'s
    /// to the reader's.
    func handOut(_ frame: Int, through chain: [DefinitionKey]) {
        handouts.add(frame)
        guard !frames[frame].flags.contains(.handedOut) else { return }
        record(chain.last, asTakerOf: frame)
        if chain.count > 2 { recordPath(of: frame, Array(chain.dropFirst().dropLast())) }
    }

    /// Flags `frame` as handed out, unless it is already, and records who took it first: `taker`, or
    /// another thread (nil).
    func recordHandout(of frame: Int, to taker: DefinitionKey?) {
        guard !frames[frame].flags.contains(.handedOut) else { return }
        record(taker, asTakerOf: frame)
    }

    /// Flags `frame` as handed out to `taker` (nil: another thread), its first taker.
    @inline(__always)
    func record(_ taker: DefinitionKey?, asTakerOf frame: Int) {
        frames[frame].flags.insert(.handedOut)
        if handouts.takers.count <= frame {
            handouts.takers += repeatElement(nil, count: frame + 1 - handouts.takers.count)
        }
        handouts.takers[frame] = taker
    }

    /// Records the definitions between `frame` and the taker that flagged it first.
    func recordPath(of frame: Int, _ between: [DefinitionKey]) {
        frames[frame].flags.insert(.handedOutInALongerCycle)
        handouts.takerPaths[frame] = between
    }

    /// Warns when the in-flight instance of `frame` handed out to a read of `key` is a value, which
    /// the reader gets a copy of (see ``warnValueHandedOut(_:type:)``).
    func warnIfValue(_ object: AnyObject, handedOutFrom frame: Int, to key: DefinitionKey) {
        // An instance of the very class read is no box: no cast for the common case.
        if ObjectIdentifier(type(of: object)) != ObjectIdentifier(key.type), let box = object as? AnyValueBox,
            Assemblies.identity(of: box.anyValue) == nil
        {
            warnValueHandedOut(chain(from: frame, to: key), type: key.type)
        }
    }

    /// Warns, once per chain and family, that a value registered with `*~>` was read back while its
    /// definition was being built: the reader got a copy, which misses what the body changes later.
    func warnValueHandedOut(_ chain: [DefinitionKey], type: Any.Type) {
        guard let family = graph.family else { return }
        let names = chain.map(DefinitionName.init)
        guard family.withCaptives({ $0.warned.insert(names).inserted }) else { return }
        WaitWarning.print(
            """
            \(names[0]) registered a value of type \(type), which is not a class, with *~>, and \(names[names.count - 2]) \
            read it back while it was being built: \(names.map(\.description).joined(separator: " → ")). The reader \
            got a copy made when the value was registered, which doesn't see what the body changes afterwards. \
            To fix this, make \(type) a class, or finish the value before registering it.
            """
        )
    }

    // MARK: Frames

    /// Whether the frame `index` builds `key`, compared where the frame's key lies: copying it out
    /// to compare it costs more than the comparison.
    @inline(__always)
    func frame(_ index: Int, builds key: DefinitionKey) -> Bool {
        if frames[index].hashBits != key.hashBits { return false }
        return DefinitionKey.same(at: keyAddress(ofFrame: index), key)
    }

    /// Where the key of the frame `index` lies: in the graph's table for a frame with an entry, in
    /// the stack of frames for any other (see ``FrameStack``).
    @inline(__always)
    func keyAddress(ofFrame index: Int) -> UnsafePointer<DefinitionKey> {
        let entry = Int(frames[index].entry)
        return entry >= 0 ? entries.keyAddress(at: entry) : frames.ownKey(index)
    }

    /// The key of the frame `index`.
    func key(ofFrame index: Int) -> DefinitionKey {
        keyAddress(ofFrame: index).pointee
    }

    /// Whether a frame can be pushed without growing the stack of frames, looking for a cycle of
    /// prototypes, or coming near the end of the thread's stack.
    @inline(__always)
    var canPushWithoutChecks: Bool {
        frames.canPushQuickly && hasStackRoom(at: assemblies_frame_address())
    }

    /// Pushes a frame for `key`, the key of the object-graph definition of `entry`, when
    /// ``canPushWithoutChecks``; returns its index.
    @inline(__always)
    func pushWithoutChecks(_ key: borrowing DefinitionKey, entry: Int) -> Int {
        frames.push(key, entry: entry, scope: .objectGraph)
    }

    /// Pushes a frame for `key`, in the scope of `entry` (a prototype's when it is -1), after the
    /// checks ``canPushWithoutChecks`` stands for; returns its index.
    @inline(never)
    func push(_ key: DefinitionKey, entry: Int, scope: Scope.Kind = .prototype) -> Int {
        if !canPushWithoutChecks {
            prepareToPushDeeper(key)
        }
        if entry >= 0 {
            return frames.push(key, entry: entry, scope: entries.entry(entry).pointee.scope)
        }
        return frames.push(key, scope: scope)
    }

    /// Makes room for one more frame, looks for a cycle of prototypes at each doubling depth, and
    /// stops before the thread's stack runs out.
    func prepareToPushDeeper(_ key: DefinitionKey) {
        let address = assemblies_frame_address()
        if !hasStackRoom(at: address) && thread.currentStack.isExhausted(at: address) {
            stopBeforeStackOverflow(at: key)
        }
        frames.makeRoom()
        if frames.isAtCycleCheck {
            checkForPrototypeCycle()
        }
    }

    /// Stops a resolution nested so deeply that the thread's stack is nearly used up.
    ///
    /// The message is built on a thread of its own (see ``StackLimit/stopOnAStackOfItsOwn(_:)``):
    /// what is left of this one's stack may not hold the frames that building and printing it take,
    /// in a debug build above all.
    func stopBeforeStackOverflow(at key: DefinitionKey) -> Never {
        StackLimit.stopOnAStackOfItsOwn {
            let chain = self.threadChain(to: key)
            var counts: [String: Int] = [:]
            for step in chain {
                counts["\(String(describing: step.assembly)).\(step.member)", default: 0] += 1
            }
            let repeated = counts.max { $0.value < $1.value }.map { (member: $0.key, count: $0.value) }
            Failure.stackExhausted(depth: chain.count, first: chain[0], last: key, repeated: repeated)
        }
    }

    /// A cycle made only of prototypes builds new instances forever, so the stack keeps growing.
    /// Each time it doubles past ``FrameStack/firstCycleCheck``, look for the top definition further down with
    /// only prototypes in between.
    func checkForPrototypeCycle() {
        frames.checkTwiceAsDeepNext()
        let top = frames.count - 1
        var frame = top - 1
        while frame >= 0 && frames[frame + 1].scope == .prototype {
            if DefinitionKey.same(key(ofFrame: frame), key(ofFrame: top)) {
                // Report the cycle from where it was first entered.
                let period = top - frame
                var start = frame
                while start > 0 && DefinitionKey.same(key(ofFrame: start - 1), key(ofFrame: start - 1 + period)) {
                    start -= 1
                }
                Failure.prototypeCycle((start...(start + period)).map { key(ofFrame: $0) })
            }
            frame -= 1
        }
    }

    // MARK: Leaving definitions

    /// Pops the frame `index` — the innermost — whose body returned `result`: checks it against the
    /// instance the body registered, hands the instance to the frame's entry, if any, and runs the
    /// hooks the body added.
    func leaveRegistered(_ index: Int, returning result: AnyObject) {
        frames.count = index
        let frame = frames[index]
        // Compared by address first: taking the registered instance as a reference would retain
        // and release it, which for an object with weak references goes through its side table.
        let returnsRegistered = frame.object?.toOpaque() == Unmanaged.passUnretained(result).toOpaque()
        if let registered = frame.object, !returnsRegistered {
            if !registered._withUnsafeGuaranteedRef({ Self.isSame($0, result) }) {
                Failure.returnedOtherObject(key(ofFrame: index))
            }
        }
        if frame.entry >= 0 {
            let entry = entries.entry(Int(frame.entry))
            entry.pointee.state = .done
            if let registered = frame.object, returnsRegistered {
                // The frame's reference moves to the entry: no extra retain, which matters for objects
                // with weak references, whose counts live in a side table.
                entry.pointee.object = registered
            } else {
                entry.pointee.object = Unmanaged.passRetained(result)
                frame.object?.release()
            }
        } else {
            frame.object?.release()
        }
        if index == handouts.lowest {
            handedOutFrameLeft()
        }
        if frame.flags.contains(.hasHooks) {
            runHooks(ofFrameWithSerial: frame.serial, instance: result)
        }
    }

    /// Whether `returned` is the instance registered as `registered`: the same object, or values
    /// whose identities (an existential's object) are the same — or both none.
    static func isSame(_ registered: AnyObject, _ returned: AnyObject) -> Bool {
        registered === returned || identity(ofKept: registered) == identity(ofKept: returned)
    }

    /// Called when the frame that was ``Handouts/lowest`` has been left.
    func handedOutFrameLeft() {
        handouts.lowest = .max
        if !held.untilHandoutsFinish.isEmpty || !handouts.toOtherThreads.isEmpty {
            handedOutFrameFinished()
        }
    }

    /// Runs the hooks of the frame numbered `serial`, which has just been left, in the order they
    /// were added, and queues its deferred steps.
    func runHooks(ofFrameWithSerial serial: UInt64, instance object: AnyObject) {
        guard hooks.waiting.last?.serial == serial else { return }
        var start = hooks.waiting.count
        while start > 0 && hooks.waiting[start - 1].serial == serial { start -= 1 }
        let finished = hooks.waiting[start...]
        hooks.waiting.removeSubrange(start...)
        let instance = unboxed(object)
        for hook in finished {
            if hook.isDeferred {
                hooks.steps.append { hook.run(instance) }
            } else {
                hook.run(instance)
            }
        }
    }

    /// Adds a hook to the frame a ``Definition`` belongs to.
    func addHook(in handle: DefinitionHandle, key: DefinitionKey, isDeferred: Bool, _ run: @escaping (Any) -> Void) {
        let index = handle.frame
        guard index < frames.count, frames[index].serial == handle.serial else {
            Failure.definitionUsedOutsideItsBody(key)
        }
        frames[index].flags.insert(.hasHooks)
        hooks.waiting.append(Hook(serial: handle.serial, isDeferred: isDeferred, run: run))
    }

    /// Makes `run` how the instance of the frame that `handle` names shuts down: a frame that builds
    /// a singleton or an instance of a resettable scope (see ``Definition/onShutdown(_:)``).
    func addShutdown(in handle: DefinitionHandle, key: DefinitionKey, _ run: @escaping SingletonSlot.Shutdown) {
        let index = handle.frame
        guard index < frames.count, frames[index].serial == handle.serial else {
            Failure.definitionUsedOutsideItsBody(key)
        }
        let scope = frames[index].scope
        guard scope == .singleton || scope == .resettable,
            let build = building.last(where: { $0.serial == handle.serial })
        else { Failure.shutdownOfUnstoredInstance(self.key(ofFrame: index), scope: scope) }
        build.store.addShutdown(run, for: build.slot)
    }

    // MARK: Registering

    /// Puts `object` (a class instance, or a ``ValueBox``) into the graph as the instance of the frame
    /// that `handle`, a ``Definition``'s, names.
    func register(_ object: AnyObject, in handle: DefinitionHandle, key: DefinitionKey) {
        let index = handle.frame
        guard index < frames.count, frames[index].serial == handle.serial else {
            Failure.definitionUsedOutsideItsBody(key)
        }
        let frame = frames.address(index)
        if let registered = frame.pointee.object?.takeUnretainedValue() {
            let identity = identity(ofKept: registered)
            if identity == nil || identity != Assemblies.identity(ofKept: object) {
                Failure.registeredTwice(self.key(ofFrame: index))
            }
            return
        }
        frame.pointee.object = Unmanaged.passRetained(object)
        if frame.pointee.entry < 0 && frame.pointee.scope != .prototype {
            registerInSlot(object, frame: index)
        }
    }

    /// Registers `object` in the frame `handle` names, on this thread.
    @usableFromInline
    static func register(_ object: AnyObject, in handle: DefinitionHandle, key: DefinitionKey) {
        if currentAddress == handle.resolver.toOpaque() {
            // The common case: the definition's resolver is this thread's current one, so it is alive.
            handle.resolver._withUnsafeGuaranteedRef { resolver in
                if resolver.number != handle.number { Failure.definitionUsedOutsideItsBody(key) }
                resolver.register(object, in: handle, key: key)
            }
        } else {
            withCurrent { current in
                current.resolver(of: handle, key: key).register(object, in: handle, key: key)
            }
        }
    }

    /// The resolver of this thread (or of the current task's async graph) whose frame `handle`
    /// names: this one or one it stands in for. Stops when the definition is used outside its body —
    /// after it returned, in a later graph, on another thread, or after its thread ended.
    func resolver(of handle: DefinitionHandle, key: DefinitionKey) -> Resolver {
        // A definition of an async body is used from the task, whose graphs are not the thread's.
        guard let owner = resolver(numbered: handle.number) ?? AsyncGraph.resolver(numbered: handle.number),
            Unmanaged.passUnretained(owner).toOpaque() == handle.resolver.toOpaque(),
            handle.frame < owner.frames.count, owner.frames[handle.frame].serial == handle.serial
        else { Failure.definitionUsedOutsideItsBody(key) }
        return owner
    }

    /// This resolver, then the resolvers it stands in for, outermost last: the graphs open on this
    /// thread, innermost first.
    var chain: some Sequence<Resolver> { sequence(first: self, next: \.outer) }

    /// The resolver numbered `number` among the graphs open on this thread.
    func resolver(numbered number: UInt64) -> Resolver? {
        chain.first { $0.number == number }
    }

    /// The definitions from `frame` to the top of the stack, then `key` read again.
    func chain(from frame: Int, to key: DefinitionKey) -> [DefinitionKey] {
        (frame..<frames.count).map { self.key(ofFrame: $0) } + [key]
    }

    func checkExplicitKey(_ key: DefinitionKey, at index: Int, scope: Scope.Kind) {
        let first = entries.key(at: index)
        key.requireSameType(as: first)
        let firstScope = entries.entry(index).pointee.scope
        if firstScope != scope {
            Failure.explicitKeyScopeMismatch(key, first: first, firstScope: firstScope, scope: scope)
        }
    }

    /// An explicit key names one slot whatever its scope, so the key of a definition that has no
    /// entry of its own (a prototype, a stored definition) is checked like the others'.
    func checkExplicitKeyWithoutEntry(_ key: DefinitionKey, scope: Scope.Kind) {
        let found = entry(for: key, scope: scope, lookup: entries.find(key))
        checkExplicitKey(key, at: found, scope: scope)
    }
}
