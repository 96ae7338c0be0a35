// Stored definitions (singletons, weak singletons, resettable scopes): the per-thread caches in
// front of the family's store, and building and publishing them.

extension Resolver {
    // MARK: Singletons

    /// The object of a singleton already built for `family` (see ``stored(_:scope:)``), from this
    /// resolver's cache or, the first time, from the family; it fills the key's line of the cache's
    /// first level, which the getter looks at.
    func cachedSingletonObject(_ key: DefinitionKey, in family: Family) -> AnyObject? {
        // A closing family's instances may be released: its cache entries must not be read.
        if family.isClosing { return nil }
        return singletonCache.object(for: key, in: family)
    }

    // MARK: Building

    /// Decides a read of a stored definition (singleton, weak singleton, resettable scope): the
    /// instance the graph's store has — published, or being built or held back by a graph of this
    /// thread (or task) — or the frame that builds it in the slot this read claimed. A thread that
    /// finds the slot busy on another thread waits for it here; a task, which can suspend
    /// (`suspends`), is told to wait (``Decision/wait(_:_:)``) and decides again once the slot has
    /// changed.
    func decideStored(_ key: DefinitionKey, scope: Scope, suspends: Bool) -> Decision {
        if key.isExplicit { checkExplicitKeyWithoutEntry(key, scope: scope.kind) }
        if isWatchingCaptives && scope.kind == .resettable { checkCaptive(key, scope: scope) }
        let store = graph.store!
        var waited = false
        let claim: SingletonStore.Claim
        if suspends {
            if thread.mayHaveForeignDependencies { takeInbox() }
            claim = store.claimWithoutWaiting(key, scope: scope, for: claimant())
        } else {
            claim = store.claim(key, scope: scope, for: claimant(), waited: &waited)
            if waited { takeInbox() }
        }
        switch claim {
        case .instance(let object):
            return .instance(object)
        case .weaklyKept(let object):
            held.aliveUntilClose.append(object)
            return .instance(object)
        case .inFlight(let object, let builder):
            return .instance(inFlight(object, builtBy: builder, key))
        case .taken(let object, _):
            thread.mayHaveForeignDependencies = true
            if !waited { takeInbox() }
            return .instance(object)
        case .initializerCycle(let chain):
            Failure.initializerCycle(chain.definitions + threadChain(to: key))
        case .heldBelow(let chain):
            Failure.graphsWaitOnOneThread(threadChain(to: key), held: chain.definitions)
        case .build(let slot, let chain):
            if key.isMethodWithParameters { Failure.singletonMethodWithParameters(key, scope: scope) }
            return .build(DefinitionHandle(resolver: self, frame: startBuilding(slot, key, scope: scope, chain: chain)))
        case .busy(let slot):
            return .wait(slot, store)
        }
    }

    /// The thread, the frame about to be pushed, and this resolver, which makes the chain that leads
    /// to the key read.
    func claimant() -> SingletonStore.Claimant {
        SingletonStore.Claimant(
            frame: FrameReference(thread: thread, resolver: number, frame: frames.count, serial: frames.nextSerial),
            readingBy: self
        )
    }

    /// Pushes the frame that builds `slot`; returns its index.
    func startBuilding(_ slot: SingletonSlot, _ key: DefinitionKey, scope: Scope, chain: BuildChain) -> Int {
        let step = push(key, entry: -1, scope: scope.kind)
        frames[step].flags.insert(.buildsSlot)
        #if DEBUG
        let isWatched = graph.family?.checksCaptives ?? false
        #else
        let isWatched = false
        #endif
        building.append(
            SlotBuild(
                slot: slot,
                store: graph.store!,
                isWatched: isWatched,
                chain: chain,
                frame: step,
                serial: frames[step].serial
            )
        )
        return step
    }

    /// Records the instance a body returned, before its hooks run (in ``leave(_:returning:)``): a
    /// hook that reads the singleton gets it.
    func bodyReturned(_ object: AnyObject, in slot: SingletonSlot) {
        graph.store!.register(object, in: slot)
    }

    /// Publishes what a body built in `slot` — or holds it back (see ``settle(_:)``).
    func finishBuilding(_ slot: SingletonSlot, _ object: AnyObject) {
        building.removeLast()
        if slot.scope.kind == .weakSingleton { held.aliveUntilClose.append(object) }
        let store = graph.store!
        if !hooks.steps.isEmpty {
            // `afterAllInjections` steps queued in this graph may still wire what the instance
            // points at (or the instance itself): it waits for them (see `runDeferredSteps`).
            store.hold(slot, object: object, until: stepsFrame)
            held.untilSteps.append(Pending(slot: slot, store: store, object: object))
            return
        }
        if !thread.mayHaveForeignDependencies && !hasHandouts {
            // What `settle` decides when nothing of this thread was handed out, and it depends on
            // no other thread: publish it now.
            publish(slot, object, in: store)
            return
        }
        settle([Pending(slot: slot, store: store, object: object)])
    }

    /// The instance of a slot that a graph of this thread is building: the instance it registered,
    /// which is now handed out before it is finished.
    func inFlight(_ object: AnyObject?, builtBy builder: FrameReference, _ key: DefinitionKey) -> AnyObject {
        guard let owner = resolver(numbered: builder.resolver) else {
            preconditionFailure("Assemblies: a slot's builder is not on its thread")
        }
        guard let object else {
            Failure.initializerCycle(owner.threadChain(from: builder.frame, through: self) + [key])
        }
        let isBeingWired =
            builder.frame < owner.frames.count && owner.frames[builder.frame].serial == builder.serial
        if isBeingWired {
            if owner === self {
                handOut(builder.frame)
            } else {
                owner.handOut(builder.frame, through: owner.threadChain(from: builder.frame, through: self))
            }
        }
        if isBeingWired, let box = object as? AnyValueBox, Assemblies.identity(of: box.anyValue) == nil {
            warnValueHandedOut(owner.threadChain(from: builder.frame, through: self) + [key], type: key.type)
        }
        // Otherwise its body has returned (a hook reads it): it is finished, nothing to wait for.
        return object
    }

    /// Records the instance a stored definition's body registered, for the other graphs of this
    /// thread that read it before it is finished.
    func registerInSlot(_ object: AnyObject, frame: Int) {
        guard let build = building.last(where: { $0.frame == frame }) else { return }
        build.store.register(object, in: build.slot)
    }

    // MARK: Publishing

    /// Publishes finished stored instances, unless something below them on this thread is still
    /// being wired and was handed out: then they wait for it (see ``Handouts/lowest``) — or for a
    /// graph's `afterAllInjections` steps, when another thread took an instance held back for them
    /// (see ``outermostHandedOut()``).
    func settle(_ items: [Pending]) {
        guard !items.isEmpty else { return }
        if let (resolver, frame) = outermostHandedOut() {
            for item in items {
                item.store.hold(item.slot, object: item.object, until: frame)
            }
            if frame.frame == -1 {
                resolver.held.untilSteps.append(contentsOf: items)
            } else {
                resolver.held.untilHandoutsFinish.append(contentsOf: items)
            }
            return
        }
        if thread.mayHaveForeignDependencies, let foreign = WaitRegistry.firstForeignDependency(of: thread) {
            // Hand them to the thread this one depends on, and wait until it has finished.
            for item in items {
                item.store.hold(item.slot, object: item.object, until: foreign)
            }
            awaitForeignDependencies(holding: items)
            return settle(items)
        }
        thread.mayHaveForeignDependencies = false
        for item in items {
            publish(item.slot, item.object, in: item.store)
        }
    }

    /// Publishes `object`, finished in `slot` of `store`, keeping what the graph must keep of it.
    private func publish(_ slot: SingletonSlot, _ object: AnyObject, in store: SingletonStore) {
        switch store.publish(slot, object: object) {
        case .kept: break
        case .dropped(let object): held.toDisposeAtClose.append(object)
        case .weaklyKept(let object): held.aliveUntilClose.append(object)
        }
    }

    /// Whether a frame of this resolver or of one it stands in for was handed out while being wired
    /// (see ``outermostHandedOut()``).
    var hasHandouts: Bool {
        var resolver = self
        while resolver.handouts.isEmpty {
            guard let next = resolver.outer else { return false }
            resolver = next
        }
        return true
    }

    /// The lowest frame of this thread that was handed out while being wired, and its resolver: the
    /// outermost resolver's ``stepsFrame`` when another thread took an instance it holds for its
    /// steps (they run after all its frames have finished), else its lowest handed-out frame.
    func outermostHandedOut() -> (Resolver, FrameReference)? {
        var outermost: Resolver?
        for resolver in chain where !resolver.handouts.isEmpty { outermost = resolver }
        guard let found = outermost else { return nil }
        if found.handouts.ofHeldInstances { return (found, found.stepsFrame) }
        let frame = found.handouts.lowest
        return (
            found,
            FrameReference(thread: thread, resolver: found.number, frame: frame, serial: found.frames[frame].serial)
        )
    }

    /// Called when the frame that was ``Handouts/lowest`` has finished (and ``Handouts/lowest`` is
    /// reset): what waited for it waits for the next unfinished frame of this thread, or is
    /// published.
    func handedOutFrameFinished() {
        if !handouts.toOtherThreads.isEmpty {
            let next =
                outermostHandedOut()?.1
                ?? (thread.mayHaveForeignDependencies ? WaitRegistry.firstForeignDependency(of: thread) : nil)
            for frame in handouts.toOtherThreads {
                WaitRegistry.finished(frame, next: next)
            }
            handouts.toOtherThreads.removeAll()
        }
        if !held.untilHandoutsFinish.isEmpty {
            let items = held.untilHandoutsFinish
            held.untilHandoutsFinish.removeAll()
            settle(items)
        }
    }

    // MARK: Other threads

    /// What instances held back for this graph's `afterAllInjections` steps wait for, as a frame
    /// (index −1) that other threads may depend on: it finishes when the steps have run (see
    /// ``stepsFinished(abandoned:)``).
    var stepsFrame: FrameReference {
        FrameReference(thread: thread, resolver: number, frame: -1, serial: 0)
    }

    /// The `afterAllInjections` steps have run, or won't (`abandoned`): the threads that took an
    /// instance held back for them now depend on what this thread depends on, or on nothing.
    func stepsFinished(abandoned: Bool) {
        guard handouts.ofHeldInstances else { return }
        handouts.ofHeldInstances = false
        // As when a handed-out frame finishes: what the settled items wait for next.
        let next =
            abandoned
            ? nil
            : outermostHandedOut()?.1
                ?? (thread.mayHaveForeignDependencies ? WaitRegistry.firstForeignDependency(of: thread) : nil)
        WaitRegistry.finished(stepsFrame, next: next)
    }

    /// Marks the frames other threads took instances from while this thread was blocked.
    func takeInbox() {
        for frame in WaitRegistry.takeInbox(of: thread) {
            if frame.frame == -1, let owner = resolver(numbered: frame.resolver), !owner.held.untilSteps.isEmpty {
                // An instance held back for that graph's steps: finished when they have run.
                owner.handouts.ofHeldInstances = true
                continue
            }
            guard let owner = resolver(numbered: frame.resolver), frame.frame >= 0, frame.frame < owner.frames.count,
                owner.frames[frame.frame].serial == frame.serial
            else {
                WaitRegistry.finished(frame, next: nil)
                continue
            }
            owner.handouts.toOtherThreads.append(frame)
            owner.handouts.add(frame.frame)
            owner.recordHandout(of: frame.frame, to: nil)
        }
    }

    /// Blocks until the frames of other threads that this thread took instances from are finished.
    func awaitForeignDependencies(holding items: [Pending]) {
        guard WaitRegistry.beginAwaitingFrames(of: thread) else { return }
        // Threads waiting for what this thread owns look for a cycle again, now that it waits too.
        for resolver in chain {
            for build in resolver.building.all { build.store.wakeWaiters(of: build.slot) }
            for item in resolver.held.untilHandoutsFinish + resolver.held.untilSteps {
                item.store.wakeWaiters(of: item.slot)
            }
        }
        for item in items { item.store.wakeWaiters(of: item.slot) }
        let thread = thread
        let keys = items.map(\.slot.key)
        WaitRegistry.awaitFrames(of: thread) { first in
            self.takeInbox()
            // Another thread took an instance of a frame of this one (or one held for a graph's
            // steps), which that thread now waits for: this thread goes on, and `settle` holds the
            // items for that frame instead. (Were it to wait, two threads could each wait for the
            // other's frames, and nothing would break that cycle.)
            if self.hasHandouts { return true }
            guard let first else { return false }
            // What these wait for changed hands: a thread that reads one now depends on `first`.
            for item in items {
                item.store.hold(item.slot, object: item.object, until: first)
            }
            return false
        } warning: {
            """
            \(thread.description) has waited \(WaitWarning.delay) s for another thread to finish wiring \
            an instance it took to break a cycle between singletons built on both threads at once, \
            before it publishes \(keys.map(\.description).joined(separator: ", ")). If code \
            on that thread waits for this one (a DispatchQueue.sync, a semaphore, a lock), neither \
            can go on. To fix this, build these singletons eagerly with activate(), or on one \
            thread. Still waiting.
            """
        }
        takeInbox()
    }

    // MARK: Chains

    /// The chain a slot claimed for `key` keeps: the chain of the innermost slot this thread is
    /// building, then the definitions read since, then `key` — the frames since the last claim, not
    /// the whole depth.
    func buildChain(to key: DefinitionKey) -> BuildChain {
        // Most often, the slot is claimed in the body of the one this resolver builds: read in place,
        // that slot's build is not copied.
        let innermost = building.all.count - 1
        if innermost >= 0 && building.all[innermost].frame == frames.count - 1 {
            return BuildChain(between: [], last: StoredKey(key), after: building.all[innermost].chain)
        }
        var between: [StoredKey] = []  // innermost first until the end
        var previous: BuildChain?
        for resolver in chain {
            let slotFrame = resolver.building.last?.frame ?? -1
            var frame = resolver.frames.count - 1
            while frame > slotFrame {
                between.append(StoredKey(resolver.key(ofFrame: frame)))
                frame -= 1
            }
            if let last = resolver.building.last {
                previous = last.chain
                break
            }
        }
        between.reverse()
        return BuildChain(between: between, last: StoredKey(key), after: previous)
    }

    /// The definitions being built on this thread, outermost first, then `key`.
    func threadChain(to key: DefinitionKey) -> [DefinitionKey] {
        let outermost = chain.reversed().first!
        return outermost.threadChain(from: 0, through: self) + [key]
    }

    /// The definitions being built from frame `frame` of this resolver up to the innermost frame of
    /// `innermost`, one of its spares (or itself).
    func threadChain(from frame: Int, through innermost: Resolver) -> [DefinitionKey] {
        var chain = (frame..<frames.count).map { key(ofFrame: $0) }
        for resolver in innermost.chain.prefix(while: { $0 !== self }).reversed() {
            chain += (0..<resolver.frames.count).map { resolver.key(ofFrame: $0) }
        }
        return chain
    }

}
