/// The instances a family keeps between graphs: singletons, weak singletons, and the instances of
/// resettable scopes, by key — and the coordination of building them.
///
/// A family has one store; so does each ``OverrideContext``, so that a test's doubles, and the
/// singletons built on them, never reach the family or another test. Objects are stored as
/// ``stored(_:scope:)`` makes them: a class instance as it is, any other value in a ``ValueBox``.
///
/// Coordination is per key: the first thread to read a key claims its slot and builds it; a reader
/// on another thread waits for that slot only (in ``ResolverThread/wait(until:)``, woken when the
/// slot changes), and only until it is published; a reader on the same thread — another graph
/// opened inside the body — gets the instance being built (see ``claim(_:scope:for:waited:)``).
/// Each slot's life is a state machine, ``SingletonSlot``, whose events return what to do: the
/// store calls them under its lock and does the rest — registering a thread or task as a waiter,
/// asking ``WaitRegistry`` about cycles of waits, waking, releasing. The lock is held for a few instructions at a time and never
/// while user code runs; what a change releases is released after the lock is let go, so that no
/// `deinit` runs under it.
@usableFromInline
final class SingletonStore: @unchecked Sendable {
    // @unchecked: `slots`, `resettables`, `shutdowns` and `draining` (and every slot's fields) are
    // only touched under `lock`.
    private let lock = Lock()
    /// Broadcast when a thread or task becomes a slot's waiter (see ``awaitWaiter(member:within:)``).
    private let waiterAdded = Condition()
    @exclusivity(unchecked) private var slots: [DefinitionKey: SingletonSlot] = [:]
    /// The published instances of each resettable scope, in the order they were built.
    @exclusivity(unchecked) private var resettables: [UInt32: [SingletonSlot]] = [:]
    /// The published instances that declared a shutdown, in the order they were published — those
    /// a reset dropped included: each is shut down once, when its family is.
    @exclusivity(unchecked) private var shutdowns: [PendingShutdown] = []
    /// Where the store is in its family's shutdown (see ``drain()``).
    @exclusivity(unchecked) private var draining = Draining.open
    /// Set once the store let go of its instances (see ``releaseInstances()``): what it publishes
    /// from then on, it keeps weakly.
    @exclusivity(unchecked) private var hasReleasedInstances = false

    /// An instance to shut down, with how, and its key for the message when it throws.
    struct PendingShutdown: @unchecked Sendable {
        // @unchecked: `object` is only handed to `run`, once, by the shutdown that took it.
        let key: StoredKey
        /// Taken by the shutdown that runs `run`, so that it is released inside it.
        var object: AnyObject?
        let run: SingletonSlot.Shutdown
    }

    /// How far the store is in its family's shutdown.
    enum Draining {
        /// Builds what is read.
        case open
        /// Builds what is read, and resumes `finished` once no slot is being built or held back.
        case waiting(finished: Resumption)
        /// Shut down: refuses every build.
        case closed
    }

    /// What a read of a stored definition gets from the store.
    enum Claim {
        /// A published instance, or one finished on this thread and waiting to be published.
        case instance(AnyObject)
        /// A published instance the store keeps only weakly, since its family's root was released
        /// (see ``releaseInstances()``): the reading graph keeps it until it closes.
        case weaklyKept(AnyObject)
        /// Nobody has built it: the caller builds it in this slot, which it now owns.
        case build(SingletonSlot, chain: BuildChain)
        /// A graph on this thread is building it: its registered instance (nil before `*~>`).
        case inFlight(AnyObject?, builder: FrameReference)
        /// Another thread builds it and waits, directly or not, for this one: its registered
        /// instance, taken to break the cycle (see ``WaitRegistry``).
        case taken(AnyObject, from: FrameReference)
        /// Another thread builds it, waits for this one, and has not registered an instance yet:
        /// a cycle through initializers across threads. `chain` is the building thread's.
        case initializerCycle(chain: BuildChain)
        /// The graph of a task or thread that runs this read — below it, on this very thread —
        /// builds it or holds it back, and the read runs in a graph of another thread or task (see
        /// ``ResolverThread/isBelow(_:)``): waiting would never end. `chain` is the builder's.
        case heldBelow(chain: BuildChain)
        /// Another thread or task builds it, or holds it back: a task waits for it with
        /// ``wait(for:by:readingFrom:cancellable:)`` (see ``claimWithoutWaiting(_:scope:for:)``).
        case busy(SingletonSlot)
    }

    /// How a task's wait for a slot ended.
    enum WaitOutcome: @unchecked Sendable {
        // @unchecked: the keys are immutable copies, only read to describe the chain.
        /// The slot was published, given up, or changed hands: claim it again.
        case changed
        /// The waiting task was cancelled.
        case cancelled
        /// The waiting task was cancelled, but a thread relies on it waiting (see
        /// ``ResolverThread/isPinned``): it claims again, and waits without being cancelled.
        case cancelledWhilePinned
        /// Its owner waits, directly or not, for the waiting task: `chain` is the owner's.
        case cycle(chain: [DefinitionKey])
    }

    /// A task waiting for a slot: resumed, outside the lock, when the slot changes.
    final class TaskWaiter: @unchecked Sendable {
        // @unchecked: `resume` and `isCancelled` are only touched under the store's lock.
        /// Resumes the suspended task with how its wait ended.
        typealias Resume = @Sendable (WaitOutcome) -> Void
        let thread: ResolverThread
        /// Set while the task is registered as a waiter; taken by whoever resumes it, so that it is
        /// resumed once.
        var resume: Resume?
        /// Set by the cancellation handler, which may run before the waiter is registered.
        var isCancelled = false

        init(thread: ResolverThread) {
            self.thread = thread
        }
    }

    /// The thread and the frame that would build a slot claimed for building.
    struct Claimant {
        let frame: FrameReference
        /// Where the chain comes from: made only when a claim needs it, and with no closure to
        /// allocate at every claim (two references to copy: the claimant is passed around a lot).
        private let source: ChainSource
        var thread: ResolverThread { frame.thread }

        private enum ChainSource {
            /// The resolver reading, which makes the chain of its thread (see
            /// ``Resolver/buildChain(to:)``).
            case reader(Resolver)
            case made(BuildChain)
        }

        /// The claimant that a read by `resolver` is.
        init(frame: FrameReference, readingBy resolver: Resolver) {
            self.frame = frame
            source = .reader(resolver)
        }

        /// A claimant whose chain is made already.
        init(frame: FrameReference, chain: BuildChain) {
            self.frame = frame
            source = .made(chain)
        }

        /// The definitions from the thread's outermost read to `key`, the one being read.
        func chain(to key: DefinitionKey) -> BuildChain {
            switch source {
            case .reader(let resolver): resolver.buildChain(to: key)
            case .made(let chain): chain
            }
        }
    }

    /// The published instance of a singleton, and the key that built it, for the per-thread caches.
    func published(_ key: DefinitionKey) -> (object: AnyObject, key: DefinitionKey)? {
        lock.withLock {
            guard let slot = slots[key], case .published(let object) = slot.state else { return nil }
            check(key, readingAs: .singleton, in: slot)
            return (object, slot.key)
        }
    }

    /// Whether `key` has a finished instance, for a ``Resolution``'s source: published, or held
    /// back until what it points at is finished (its body has returned); checks nothing else.
    func hasFinished(_ key: DefinitionKey) -> Bool {
        lock.withLock { slots[key]?.hasFinished ?? false }
    }

    /// The slot of `key`, made for `scope` if there is none yet, checked against `scope`. Lock held.
    private func slot(_ key: DefinitionKey, scope: Scope) -> SingletonSlot {
        if let slot = slots[key] {
            check(key, readingAs: scope, in: slot)
            return slot
        }
        let slot = SingletonSlot(key: key, scope: scope)
        slots[slot.key] = slot  // the slot keeps the key's arguments
        return slot
    }

    /// Decides what a read of `key` in `scope` gets, waiting while another thread builds it.
    ///
    /// `waited` is set when the thread waited: other threads may then have taken instances from it
    /// (see ``Resolver/takeInbox()``).
    func claim(_ key: DefinitionKey, scope: Scope, for claimant: Claimant, waited: inout Bool) -> Claim {
        var waitingFor: SingletonSlot?
        let claim = claimant.thread.wait { claimOrWait(key, scope: scope, for: claimant, waitingFor: &waitingFor) }
        if waitingFor != nil { waited = true }
        return claim
    }

    /// One look of a thread's ``claim(_:scope:for:waited:)``: what the read gets, or — when another
    /// thread or task builds the slot or holds it back — the thread registered as its waiter, woken
    /// when the slot changes hands or ends, or a cycle of waits through it closes elsewhere (see
    /// ``WaitRegistry``). `waitingFor` is the slot the thread was registered on by the last look,
    /// if any: the thread leaves it when it stops waiting. Doesn't block.
    func claimOrWait(
        _ key: DefinitionKey,
        scope: Scope,
        for claimant: Claimant,
        waitingFor: inout SingletonSlot?
    ) -> ResolverThread.WaitStep<Claim> {
        let thread = claimant.thread
        lock.lock()
        defer { lock.unlock() }
        let slot = slot(key, scope: scope)
        let claim: Claim
        switch slot.claim(by: thread, in: claimant.frame, chain: { claimant.chain(to: key) }) {
        case .instance(let object): claim = keepsWeakly(slot) ? .weaklyKept(object) : .instance(object)
        case .build(let chain):
            refuseBuildOnceClosed(key)
            claim = .build(slot, chain: chain)
        case .inFlight(let object, let builder): claim = .inFlight(object, builder: builder)
        case .heldBelow(let chain): claim = .heldBelow(chain: chain)
        case .busy(let owner):
            // Checked each time round: the owner, or what it waits for, may have changed.
            let start = WaitRegistry.beginWait(thread, for: slot, of: self, ownedBy: owner, blocks: true)
            if case .closesACycle = start {
                claim = take(slot, reading: key, by: claimant)
                break
            }
            guard case .waiting = start else {
                preconditionFailure("Assemblies: a blocked read was asked to leave a cycle of waits to others")
            }
            if waitingFor !== slot { waitingFor?.removeWaiter(thread) }
            // Each time round: a change of the slot let its waiters go, and a weak singleton's
            // slot may be building again, for another thread.
            add(.thread(thread), to: slot)
            waitingFor = slot
            let chain = slot.chain!
            return .waiting {
                // Described outside the lock (argument values' descriptions are user code); the
                // thread stays registered as waiting meanwhile.
                Self.waitWarning(
                    reader: thread,
                    readingFrom: claimant.chain(to: key).definitions,
                    key: key,
                    holder: owner,
                    holderChain: chain.definitions
                )
            }
        }
        if let slot = waitingFor {
            slot.removeWaiter(thread)
            WaitRegistry.endWait(thread)
        }
        return .done(claim)
    }

    /// Decides what a task's read of `key` in `scope` gets, without waiting: ``Claim/busy(_:)`` when
    /// another thread or task builds it or holds it back.
    func claimWithoutWaiting(_ key: DefinitionKey, scope: Scope, for claimant: Claimant) -> Claim {
        lock.withLock {
            let slot = slot(key, scope: scope)
            switch slot.claim(by: claimant.thread, in: claimant.frame, chain: { claimant.chain(to: key) }) {
            case .instance(let object): return keepsWeakly(slot) ? .weaklyKept(object) : .instance(object)
            case .build(let chain):
                refuseBuildOnceClosed(key)
                return .build(slot, chain: chain)
            case .inFlight(let object, let builder): return .inFlight(object, builder: builder)
            case .heldBelow, .busy: return .busy(slot)
            }
        }
    }

    /// Suspends the task of `thread` until `slot` is published, given up or changes hands — or,
    /// when `cancellable`, until the task is cancelled. No thread waits meanwhile: the slot keeps
    /// the task's continuation, and whoever changes the slot resumes it. A task that is still
    /// waiting after ``WaitWarning/delay`` prints a warning naming `chain`, the definitions it reads
    /// the singleton from, once.
    func wait(
        for slot: SingletonSlot,
        by thread: ResolverThread,
        readingFrom chain: [StoredKey],
        cancellable: Bool
    ) async -> WaitOutcome {
        let waiter = TaskWaiter(thread: thread)
        let warning = warnLater(if: waiter, stillWaitsFor: slot, readingFrom: chain)
        defer { warning?.cancel() }
        let outcome: WaitOutcome
        if cancellable {
            outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    self.suspend(waiter, on: slot) { continuation.resume(returning: $0) }
                }
            } onCancel: {
                self.cancel(waiter, on: slot)
            }
        } else {
            outcome = await withUnsafeContinuation { continuation in
                self.suspend(waiter, on: slot) { continuation.resume(returning: $0) }
            }
        }
        let isPinned = WaitRegistry.endWait(thread)
        if case .cancelled = outcome, isPinned { return .cancelledWhilePinned }
        return outcome
    }

    /// Registers `waiter` on `slot`, to be resumed through `resume` when the slot changes — unless
    /// the slot has changed since it was claimed, the waiter is cancelled (the cancellation handler
    /// runs at once for a task cancelled before it waits), or waiting would close a cycle of waits
    /// that no blocked synchronous read is on: then resumes it at once. When such a read is on the
    /// cycle, wakes it: it breaks the cycle. Doesn't block.
    func suspend(_ waiter: TaskWaiter, on slot: SingletonSlot, resume: @escaping TaskWaiter.Resume) {
        var breakers: [WaitRegistry.Waiting] = []
        let outcome: WaitOutcome? = lock.withLock {
            guard slots[slot.key] === slot, let owner = slot.owner, owner !== waiter.thread else { return .changed }
            if waiter.isCancelled { return .cancelled }
            switch WaitRegistry.beginWait(waiter.thread, for: slot, of: self, ownedBy: owner, blocks: false) {
            case .waiting:
                break
            case .waitingWhileOthersBreakTheCycle(let waiting):
                breakers = waiting
            case .closesACycle:
                // The owner's chain, and the singleton it waits for in turn.
                let awaited = WaitRegistry.slotAwaited(by: owner).map { [$0.key] } ?? []
                return .cycle(chain: slot.chain!.definitions + awaited)
            }
            waiter.resume = resume
            add(.task(waiter), to: slot)
            return nil
        }
        // Woken and resumed outside the lock: waking takes stores' locks (this one's, maybe), and a
        // cancellation handler may take the continuation while holding the task's.
        WaitRegistry.wakeWaiters(of: breakers)
        if let outcome { resume(outcome) }
    }

    /// A task that prints the wait warning after ``WaitWarning/delay`` if `waiter` still waits for
    /// `slot` then; nil when the delay is too long to ever pass.
    private func warnLater(
        if waiter: TaskWaiter,
        stillWaitsFor slot: SingletonSlot,
        readingFrom chain: [StoredKey]
    ) -> Task<Void, Never>? {
        let delay = WaitWarning.delay
        guard delay >= 0 && delay < 1e9 else { return nil }
        return Task.detached {
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            guard !Task.isCancelled else { return }
            let waitedFor: (holder: ResolverThread?, chain: BuildChain?)? = self.lock.withLock {
                guard waiter.resume != nil else { return nil }
                return (slot.owner, slot.chain)
            }
            // Described outside the lock: describing argument values runs their `description`.
            guard let waitedFor else { return }
            WaitWarning.print(
                Self.waitWarning(
                    reader: waiter.thread,
                    readingFrom: chain.map(\.key),
                    key: slot.key,
                    holder: waitedFor.holder,
                    holderChain: waitedFor.chain?.definitions ?? [slot.key]
                )
            )
        }
    }

    /// Resumes `waiter` as cancelled, unless the slot has resumed it already; a waiter that is not
    /// registered yet is resumed as cancelled when it tries to be (see `suspend`).
    func cancel(_ waiter: TaskWaiter, on slot: SingletonSlot) {
        let resume: TaskWaiter.Resume? = lock.withLock {
            waiter.isCancelled = true
            guard let resume = waiter.resume.take() else { return nil }
            slot.removeWaiter(waiter.thread)
            // No longer a waiter: out of the wait-for graph too (see `WaitRegistry.woke`).
            WaitRegistry.woke([waiter.thread], threads: [])
            return resume
        }
        resume?(.cancelled)
    }

    /// Makes `waiter` a waiter of `slot`. Lock held.
    private func add(_ waiter: SingletonSlot.Waiter, to slot: SingletonSlot) {
        slot.add(waiter)
        waiterAdded.broadcast()
    }

    /// Blocks until a thread or task waits for the stored definition `member` — or `seconds` have
    /// passed; returns whether one does. For tests: "the other reader waits for it now", without
    /// sleeping and hoping it does.
    func awaitWaiter(member: String, within seconds: Double) -> Bool {
        let deadline = Clock.seconds() + seconds
        lock.lock()
        defer { lock.unlock() }
        while !slots.values.contains(where: { $0.key.member == member && !$0.waiters.isEmpty }) {
            let left = deadline - Clock.seconds()
            guard left > 0 else { return false }
            _ = waiterAdded.wait(releasing: lock, seconds: left)
        }
        return true
    }

    /// Stops when `key` reads `slot` as another type (an explicit key) or in another scope: the
    /// slot's instance would be read as something it isn't, or cached for a lifetime it hasn't. Lock
    /// held: it is let go first, since the message describes argument values, which is user code, and
    /// a wiring check's read parks where it stops (see ``WiringLane``).
    private func check(_ key: DefinitionKey, readingAs scope: Scope, in slot: SingletonSlot) {
        if key.isExplicit && ObjectIdentifier(key.type) != ObjectIdentifier(slot.key.type) {
            lock.unlock()
            Failure.explicitKeyTypeMismatch(key, first: slot.key)
        }
        if slot.scope != scope {
            lock.unlock()
            Failure.storedKeyScopeMismatch(key, first: slot.key, firstScope: slot.scope, scope: scope)
        }
    }

    /// Wakes the threads and tasks waiting for `slot`, so that they look for a cycle of waits again.
    func wakeWaiters(of slot: SingletonSlot) {
        let tasks = lock.withLock { () -> [TaskWaiter.Resume] in
            guard slot.owner != nil else { return [] }
            return wake(slot.takeWakeup())
        }
        // A task claims again, and finds the cycle if there is one now.
        for resume in tasks { resume(.changed) }
    }

    /// Does what waking a slot's waiters takes while the lock is held: they leave the wait-for graph
    /// (see ``WaitRegistry/woke(_:threads:)``), and the threads wake. Returns the tasks to resume once the
    /// lock is let go.
    private func wake(_ wakeup: SingletonSlot.Wakeup?) -> [TaskWaiter.Resume] {
        if let wakeup { WaitRegistry.woke(wakeup.waiters, threads: wakeup.threads) }
        if case .waiting(let finished) = draining, !hasUnfinishedSlots {
            // The last slot being built has finished: the shutdown goes on, once the lock is let go.
            draining = .open
            return (wakeup?.tasks ?? []) + [{ _ in finished.resume() }]
        }
        return wakeup?.tasks ?? []
    }

    /// Takes the instance of a slot whose owner waits for the claimant's thread; lock held.
    private func take(_ slot: SingletonSlot, reading key: DefinitionKey, by claimant: Claimant) -> Claim {
        let thread = claimant.thread
        switch slot.take(through: { claimant.chain(to: key) }) {
        case .held(let object, let dependency, let holder):
            if holder !== dependency.thread {
                // Held for frames of other threads, which may have been retargeted since (see
                // `WaitRegistry.finished`): the taker depends on whatever the holder depends on now.
                WaitRegistry.takeDependencies(of: holder, by: thread)
            } else {
                WaitRegistry.take(dependency, by: thread)
            }
            return .taken(object, from: dependency)
        case .inFlight(let object, let builder):
            WaitRegistry.take(builder, by: thread)
            return .taken(object, from: builder)
        case .initializerCycle(let chain):
            return .initializerCycle(chain: chain)
        }
    }

    /// The chain of the first thread that took `slot`'s held instance to break a cycle of waits.
    func takenBy(_ slot: SingletonSlot) -> BuildChain? {
        lock.withLock { slot.takenBy }
    }

    // MARK: Building

    /// Records the instance a body registered with `*~>`, for the other graphs of the building
    /// thread that read the slot.
    func register(_ object: AnyObject, in slot: SingletonSlot) {
        lock.withLock { slot.register(object) }
    }

    /// Makes a finished slot wait for `dependency`, a frame still being wired; only that frame's
    /// thread may take it meanwhile.
    func hold(_ slot: SingletonSlot, object: AnyObject, until dependency: FrameReference) {
        let (released, tasks) = lock.withLock { () -> (AnyObject?, [TaskWaiter.Resume]) in
            let (released, wakeup) = slot.hold(object, until: dependency)
            return (released, wakeup.map(wake) ?? [])
        }
        _ = released  // released here, outside the lock
        for resume in tasks { resume(.changed) }
    }

    /// What the graph that published an instance does about it.
    enum Publication {
        /// Nothing: the store keeps it.
        case kept
        /// ``reset(_:)`` dropped the slot meanwhile: the graph disposes of the instance instead.
        case dropped(AnyObject)
        /// The store keeps it only weakly, since its family's root was released (see
        /// ``releaseInstances()``): the graph keeps it until it closes.
        case weaklyKept(AnyObject)
    }

    /// Publishes a finished slot: from now on every thread reads `object`.
    func publish(_ slot: SingletonSlot, object: AnyObject) -> Publication {
        let (ended, publication, tasks, unlisted) = lock.withLock {
            () -> (SingletonSlot.Ended, Publication, [TaskWaiter.Resume], [SingletonSlot.Shutdown]) in
            let (ended, dropped) = slot.publish(object)
            var unlisted: [SingletonSlot.Shutdown] = []
            if !slot.shutdowns.isEmpty {
                if hasReleasedInstances, case .open = draining {
                    // No shutdown will come: the root was released first.
                    unlisted = slot.shutdowns
                } else {
                    for run in slot.shutdowns {
                        shutdowns.append(PendingShutdown(key: slot.storedKey, object: object, run: run))
                    }
                }
                slot.shutdowns = []
            }
            let publication: Publication
            if let dropped {
                if slots[slot.key] === slot { slots[slot.key] = nil }
                publication = .dropped(dropped)
            } else if hasReleasedInstances {
                publication = slot.weaken().map(Publication.weaklyKept) ?? .kept
            } else {
                if slot.scope.kind == .resettable { resettables[slot.scope.nameID, default: []].append(slot) }
                publication = .kept
            }
            return (ended, publication, wake(ended.wakeup), unlisted)
        }
        // Released here, outside the lock: a deinit may read the family.
        withExtendedLifetime((ended, unlisted)) {}
        for resume in tasks { resume(.changed) }
        return publication
    }

    /// Gives up a slot whose instance won't be finished — its body threw, or its graph did before
    /// the instance's `afterAllInjections` steps ran: the next read, on any thread, builds it again.
    /// The threads waiting for it wake, and one of them claims it.
    func abandon(_ slot: SingletonSlot) {
        let (ended, tasks) = lock.withLock { () -> (SingletonSlot.Ended, [TaskWaiter.Resume]) in
            let ended = slot.abandon()
            if slots[slot.key] === slot { slots[slot.key] = nil }
            return (ended, wake(ended.wakeup))
        }
        // Released here, outside the lock: a deinit may read the family.
        withExtendedLifetime(ended) {}
        for resume in tasks { resume(.changed) }
    }

    // MARK: Shutting down

    /// Adds `run` to how the instance that `slot`, being built, publishes shuts down.
    func addShutdown(_ run: @escaping SingletonSlot.Shutdown, for slot: SingletonSlot) {
        lock.withLock { slot.shutdowns.append(run) }
    }

    /// Returns once no slot is being built or held back: every instance built so far that declared
    /// a shutdown is then listed (see ``shutDownInstances(running:)``). The family refuses new top-level reads
    /// meanwhile (see ``Family/requireOpen(reading:)``); the reads already running go on, and may
    /// build more.
    func drain() async {
        var warning: Task<Void, Never>?
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let isDrained = lock.withLock {
                guard case .open = draining, hasUnfinishedSlots else { return true }
                draining = .waiting(finished: Resumption(finished))
                return false
            }
            if isDrained {
                finished.resume()
            } else {
                warning = warnLaterIfStillDraining()
            }
        }
        warning?.cancel()
    }

    /// After ``WaitWarning/delay``, prints which instances a shutdown still waits for, and which
    /// thread or task builds each: a shutdown never waits silently for a build that can't end (one
    /// that waits, in turn, for the task that shuts the family down).
    private func warnLaterIfStillDraining() -> Task<Void, Never>? {
        let delay = WaitWarning.delay
        guard delay >= 0 && delay < 1e9 else { return nil }
        return Task.detached {
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            guard !Task.isCancelled else { return }
            let unfinished: [(holder: ResolverThread?, chain: BuildChain?, key: StoredKey)] = self.lock.withLock {
                guard case .waiting = self.draining else { return [] }
                return self.slots.values.filter(\.isUnfinished).map { ($0.owner, $0.chain, $0.storedKey) }
            }
            // Described outside the lock: describing argument values runs their `description`.
            for (holder, chain, key) in unfinished {
                WaitWarning.print(
                    """
                    shutDown() has waited \(delay) s for \(key.key.description), which \
                    \(holder?.description ?? "another thread or task") is building: \
                    \(Failure.describe(chain?.definitions ?? [key.key])). If that build waits for the task \
                    that shuts the family down — a child task of an async body that calls shutDown() — \
                    neither can go on. To fix this, shut the family down from outside its reads. Still \
                    waiting.
                    """
                )
            }
        }
    }

    /// Whether a shutdown waits for slots being built, for tests.
    var isWaitingToDrain: Bool {
        lock.withLock {
            if case .waiting = draining { return true }
            return false
        }
    }

    /// Shuts down the instances among `objects` that declared a shutdown, now, the last published
    /// first, each once: they leave the list the family's shutdown runs. Returns what they threw.
    func shutDown(_ objects: [AnyObject]) async -> [ShutdownError.Failure] {
        let identities = Set(objects.map(ObjectIdentifier.init))
        let pending = takeShutdowns { object in identities.contains(ObjectIdentifier(object)) }
        return await run(pending) { try await $0() }
    }

    /// Shuts down the published instances that declared a shutdown, the last published first,
    /// without waiting for those being built — in the sandbox of a wiring check whose read stopped,
    /// which never finishes them (see ``WiringLane``). Returns what the shutdowns threw.
    func shutDownPublishedInstances() async -> [ShutdownError.Failure] {
        await run(takeShutdowns { _ in true }) { try await $0() }
    }

    /// Refuses every build from now on, if nothing is being built and nothing waits to shut down;
    /// false when a read still running has built more meanwhile (shut that down, then try again).
    private func closeIfDrained() -> Bool {
        lock.withLock {
            guard shutdowns.isEmpty, !hasUnfinishedSlots else { return false }
            draining = .closed
            return true
        }
    }

    /// Shuts down every instance that declared a shutdown, once each, the last published first:
    /// waits for the instances being built, runs their shutdowns through `run` (which may set up what
    /// they run in), and again for what reads still running built meanwhile; then refuses every build.
    /// Returns what the shutdowns threw.
    func shutDownInstances(
        running run: (_ shutdown: () async throws -> Void) async throws -> Void
    ) async -> [ShutdownError.Failure] {
        var failures: [ShutdownError.Failure] = []
        while true {
            await drain()
            let pending = takeShutdowns { _ in true }
            if pending.isEmpty {
                if closeIfDrained() { return failures }
                continue
            }
            failures += await self.run(consume pending, through: run)
        }
    }

    /// Runs the shutdowns of `pending`, in order, each through `run`; returns what they threw.
    /// `pending` is consumed, so that each instance is released inside its shutdown's `run`: a copy
    /// of the array left with the caller would keep it until the caller lets go.
    private func run(
        _ pending: consuming [PendingShutdown],
        through run: (_ shutdown: () async throws -> Void) async throws -> Void
    ) async -> [ShutdownError.Failure] {
        var failures: [ShutdownError.Failure] = []
        for index in pending.indices {
            let shutdown = pending[index].run
            do {
                try await run {
                    // Released inside `run`: a deinit may read the family.
                    guard let object = pending[index].object.take() else { return }
                    try await shutdown(object)
                }
            } catch {
                failures.append(ShutdownError.Failure(definition: pending[index].key.key.description, error: error))
            }
        }
        return failures
    }

    /// The instances to shut down whose object `isTaken` picks, the last published first; each is
    /// handed out once, and the others stay listed.
    private func takeShutdowns(where isTaken: (AnyObject) -> Bool) -> [PendingShutdown] {
        lock.withLock {
            var taken: [PendingShutdown] = []
            var kept: [PendingShutdown] = []
            for shutdown in shutdowns {
                if let object = shutdown.object, isTaken(object) {
                    taken.append(shutdown)
                } else {
                    kept.append(shutdown)
                }
            }
            shutdowns = kept
            return taken.reversed()
        }
    }

    /// Whether a thread or task is building a slot or holds one back. Lock held.
    private var hasUnfinishedSlots: Bool { slots.values.contains(where: \.isUnfinished) }

    /// Stops a build that a read starts after the family has shut down. Lock held: it is let go
    /// first, since the message describes argument values, which is user code, and a wiring check's
    /// read parks where it stops (and `Never` returns to no one who would let it go again).
    private func refuseBuildOnceClosed(_ key: DefinitionKey) {
        guard case .closed = draining else { return }
        lock.unlock()
        Failure.buildAfterShutdown(key)
    }

    // MARK: Releasing

    /// Lets go of every instance the store keeps — singletons, weak singletons, the instances of
    /// resettable scopes, and those kept for their shutdowns unless the family is shutting down —
    /// once the family's root is released, or once it has shut down: an instance that holds a
    /// collaborator (or a closure that captured one) then no longer keeps the family alive. Each
    /// whole slot keeps its instance weakly from then on, as does each slot published later, and
    /// the graphs that read them keep them until they close (``Claim/weaklyKept(_:)``,
    /// ``Publication/weaklyKept(_:)``): a graph that was open at the release and reads an instance
    /// again gets the one it holds — unless nothing held it, a value's box most often, which is
    /// built again. A slot whose key has arguments goes, since an argument value could hold an
    /// assembly of the family. Returns what it let go of, to be released by the caller outside any
    /// lock (a `deinit` runs user code).
    ///
    /// No cache keeps an instance alive (``SingletonCache`` holds them `unowned`), and no read takes
    /// one from a cache once the family is closing (``Family/isClosing``).
    func releaseInstances() -> [Any] {
        lock.withLock {
            hasReleasedInstances = true
            // The slots that go, with their instances and their keys' argument values (which may
            // have a deinit too), are released with the dictionary that had them, as it was.
            var released: [Any] = [slots]
            slots = slots.filter { !$0.key.hasArguments || $0.value.isUnfinished }
            for slot in slots.values {
                if let object = slot.weaken() { released.append(object) }
            }
            released.append(resettables)
            resettables = [:]
            if case .open = draining {
                released.append(shutdowns)  // their closures, and their instances
                shutdowns = []
            }
            return released
        }
    }

    /// Whether a read of `slot`'s published instance gets one the store keeps only weakly since its
    /// family's root was released. Lock held.
    private func keepsWeakly(_ slot: SingletonSlot) -> Bool {
        hasReleasedInstances && slot.scope.kind != .weakSingleton
    }

    // MARK: Resetting

    /// Drops the instances of a resettable scope; returns them, the most recently built first.
    /// Instances still being built are dropped once finished (see ``publish(_:object:)``).
    func reset(_ scope: Scope) -> [AnyObject] {
        let dropped: [(slot: SingletonSlot, object: AnyObject?)] = lock.withLock {
            for slot in slots.values where slot.scope == scope {
                slot.drop()
            }
            if hasReleasedInstances {
                // Kept weakly since the root's release, and listed nowhere else.
                let kept = slots.values.filter { $0.scope == scope && !$0.isUnfinished }
                for slot in kept { slots[slot.key] = nil }
                return kept.map { ($0, $0.publishedObject) }
            }
            guard let published = resettables.removeValue(forKey: scope.nameID) else { return [] }
            return published.reversed().map { slot in
                if slots[slot.key] === slot { slots[slot.key] = nil }
                return (slot, slot.publishedObject)
            }
        }
        // The slots are released here, outside the lock: their keys' argument values may have a
        // deinit that reads the family.
        return dropped.compactMap(\.object)
    }

    // MARK: Messages

    /// The warning of `reader`, a thread or task, that has waited ``WaitWarning/delay`` for the
    /// singleton `key`, reading it through `chain`, while `holder` builds it or holds it back
    /// through `holderChain`.
    private static func waitWarning(
        reader: ResolverThread,
        readingFrom chain: [DefinitionKey],
        key: DefinitionKey,
        holder: ResolverThread?,
        holderChain: [DefinitionKey]
    ) -> String {
        let kind = reader.isTask ? "task" : "thread"
        let holderDescription = holder.map(\.description) ?? "another thread or task"
        let waitsFor =
            reader.isTask
            ? "awaits this task (a child task it started, a continuation this task resumes) or waits for it"
            : "waits for this thread (a DispatchQueue.sync, a semaphore, a lock)"
        return """
            \(reader.description) has waited \(WaitWarning.delay) s for the singleton \(key.description), \
            which \(holderDescription) is building or is about to publish: \(Failure.describe(holderChain)). \
            This \(kind) reads it from \(Failure.describe(chain)). If code running in that chain \
            \(waitsFor), neither can go on. To fix this, don't wait for other threads or tasks in \
            definition bodies and hooks; read the singleton before starting the work that needs it, \
            or build it eagerly with activate(). Still waiting.
            """
    }
}
