/// One stored definition's place in a ``SingletonStore`` — a singleton, a weak singleton or an
/// instance of a resettable scope — as a state machine.
///
/// ```
///          claim              hold: the body returned, but read an instance
///  (none) ───────▶ building ─────────────────────────────────────────────▶ held ──┐ hold again:
///                   │  │ ▲          still being wired below it                 │ ▲─┘ what it waits
///                   │  │ │                                                     │     for changed hands
///                   │  │ └──── claim: a weak singleton's instance was released │
///                   │  │                                                       │
///                   │  └──── publish ─────────▶ published ◀──── publish ───────┤
///                   │                                                          │
///                   └──── abandon: the body threw, or its graph did ─▶ gone ◀──┘
///                         (publish too, when reset dropped it meanwhile)
/// ```
///
/// A weak singleton is published weakly (`publishedWeakly`), and once its family's root is
/// released every whole slot is too (``weaken()``): a claim that finds its instance released builds
/// it again in the same slot.
///
/// Each case carries exactly what is valid in it. Every event is a method that changes the state
/// and returns what the caller must do — build, hand out, wait, wake these waiters, release these
/// objects — and does nothing else: no user code, no blocking, no lock of its own. The store calls
/// them with its lock held, and does what they return (waking threads, resuming tasks, releasing
/// objects, telling ``WaitRegistry``) after or around it; the tests drive them without threads.
final class SingletonSlot: @unchecked Sendable {
    // @unchecked: `state` is only touched while the owning store's lock is held.

    /// The key, with the argument values it names.
    let storedKey: StoredKey
    var key: DefinitionKey { storedKey.key }
    let scope: Scope
    @exclusivity(unchecked) private(set) var state: State
    /// How its instance shuts down, declared by its body (``Definition/onShutdown(_:)``), in the
    /// order declared; the store lists them when the slot is published, and drops them with the slot
    /// when the build is given up.
    @exclusivity(unchecked) var shutdowns: [Shutdown] = []

    /// Shuts down a stored instance, as the store keeps it (an object, or a ``ValueBox``).
    typealias Shutdown = @Sendable (AnyObject) async throws -> Void

    enum State {
        /// The graph of `owner` — a thread, or a task — builds it, in the frame `builder`.
        case building(Build)
        /// Its body has returned, but its instance may point at an instance that a frame is still
        /// wiring, which it waits for: only that frame's thread may take it meanwhile.
        case held(Held)
        /// Whole: every reader gets it, and it is never replaced.
        case published(AnyObject)
        /// Whole, while something else keeps it alive: a weak singleton, or any instance once its
        /// family's root is released (see ``weaken()``).
        case publishedWeakly(WeakReference<AnyObject>)
        /// Given up, or dropped by a reset: out of the store, and the next read makes a new slot.
        case gone
    }

    struct Build {
        /// The thread or task that builds it.
        let owner: ResolverThread
        /// The frame whose body builds it.
        let builder: FrameReference
        /// The definitions from the owner's outermost read to this one, for messages.
        let chain: BuildChain
        /// The instance the body registered with `*~>`, boxed like a stored instance.
        var registered: AnyObject?
        var waiters: [Waiter] = []
        /// Set by ``Assembly/reset(_:)``: once finished, it is disposed of instead of published.
        var isDropped = false
    }

    struct Held {
        /// The finished instance.
        var object: AnyObject
        /// The frame still being wired that it waits for.
        var dependency: FrameReference
        /// The thread or task that built it: it publishes it once what it waits for has finished.
        let holder: ResolverThread
        let chain: BuildChain
        var waiters: [Waiter]
        var isDropped: Bool
        /// The chain of the first thread that took it to break a cycle of waits: named if the
        /// holder's graph gives it up (see ``Resolver/abandonGraph()``).
        var takenBy: BuildChain? = nil

        /// The only thread that may take it: the one wiring what it waits for.
        var owner: ResolverThread { dependency.thread }
    }

    /// A thread or task waiting for a slot that another one builds or holds. Either kind is woken
    /// once, and is no longer a waiter, as soon as the slot changes: it claims again, and waits
    /// again if it still must.
    enum Waiter {
        /// A thread asleep on its ``ResolverThread/parker``.
        case thread(ResolverThread)
        /// A suspended task.
        case task(SingletonStore.TaskWaiter)

        var identity: ResolverThread {
            switch self {
            case .thread(let thread): thread
            case .task(let waiter): waiter.thread
            }
        }
    }

    /// The waiters a change of the slot wakes, taken from it: the store wakes the threads while it
    /// holds its lock (waking one only sets its ``ResolverThread/parker``), and resumes the tasks
    /// once it is let go. A change that has no waiters to wake has none (nil), not an empty one:
    /// three empty arrays would be copied and released with every publication.
    struct Wakeup {
        /// The threads to wake.
        var threads: [ResolverThread] = []
        /// How to resume each task, once.
        var tasks: [SingletonStore.TaskWaiter.Resume] = []
        /// Every waiter woken, threads and tasks, for ``WaitRegistry/woke(_:threads:)``.
        var waiters: [ResolverThread] = []
    }

    init(key: DefinitionKey, scope: Scope) {
        storedKey = StoredKey(key)
        self.scope = scope
        state = .gone
    }

    // MARK: Reading

    /// The published instance, unless it is a weak singleton that has been released.
    var publishedObject: AnyObject? {
        switch state {
        case .published(let object): object
        case .publishedWeakly(let reference): reference.object
        case .building, .held, .gone: nil
        }
    }

    /// Whether a thread or task is building it, or holds its finished instance back.
    var isUnfinished: Bool {
        switch state {
        case .building, .held: true
        case .published, .publishedWeakly, .gone: false
        }
    }

    /// Whether its body has returned: published (and not released), or held.
    var hasFinished: Bool {
        switch state {
        case .published, .held: true
        case .publishedWeakly(let reference): reference.object != nil
        case .building, .gone: false
        }
    }

    /// The thread or task that builds it or that it waits for, while it is not whole.
    var owner: ResolverThread? {
        switch state {
        case .building(let build): build.owner
        case .held(let held): held.owner
        case .published, .publishedWeakly, .gone: nil
        }
    }

    /// The chain it was claimed through, while it is not whole.
    var chain: BuildChain? {
        switch state {
        case .building(let build): build.chain
        case .held(let held): held.chain
        case .published, .publishedWeakly, .gone: nil
        }
    }

    /// The chain of the first thread that took its held instance to break a cycle of waits, if one did.
    var takenBy: BuildChain? {
        if case .held(let held) = state { held.takenBy } else { nil }
    }

    /// The threads and tasks waiting for it.
    var waiters: [Waiter] {
        switch state {
        case .building(let build): build.waiters
        case .held(let held): held.waiters
        case .published, .publishedWeakly, .gone: []
        }
    }

    // MARK: Claiming

    /// What a claim decides without waiting.
    enum Claimed {
        /// A published instance, or one held for the claimant.
        case instance(AnyObject)
        /// The claimant builds it: the slot is now building for it, through `chain`.
        case build(BuildChain)
        /// The claimant's own graph builds it: its registered instance (nil before `*~>`).
        case inFlight(AnyObject?, builder: FrameReference)
        /// Another thread or task builds or holds it, and runs below the claimant on this very
        /// thread (see ``ResolverThread/isBelow(_:)``): waiting would never end.
        case heldBelow(BuildChain)
        /// Another thread or task builds or holds it: wait, or take it to break a cycle of waits.
        case busy(owner: ResolverThread)
    }

    /// A read of the slot by `thread`, which would build it in `frame`, through the chain that
    /// `chain` makes.
    func claim(by thread: ResolverThread, in frame: FrameReference, chain: () -> BuildChain) -> Claimed {
        switch state {
        case .published(let object):
            return .instance(object)
        case .publishedWeakly(let reference):
            if let object = reference.object { return .instance(object) }
            // Released: a new instance is built in the same slot.
            return startBuilding(by: thread, in: frame, chain: chain())
        case .gone:
            return startBuilding(by: thread, in: frame, chain: chain())
        case .held(let held) where held.owner === thread:
            return .instance(held.object)
        case .building(let build) where build.owner === thread:
            return .inFlight(build.registered, builder: build.builder)
        case .building(let build):
            return build.owner.isBelow(thread) ? .heldBelow(build.chain) : .busy(owner: build.owner)
        case .held(let held):
            return held.owner.isBelow(thread) ? .heldBelow(held.chain) : .busy(owner: held.owner)
        }
    }

    private func startBuilding(by thread: ResolverThread, in frame: FrameReference, chain: BuildChain) -> Claimed {
        state = .building(Build(owner: thread, builder: frame, chain: chain))
        return .build(chain)
    }

    /// What a thread gets that takes the slot's instance to break a cycle of waits.
    enum Taken {
        /// The finished instance that waits for `dependency`; `holder` built it.
        case held(AnyObject, dependency: FrameReference, holder: ResolverThread)
        /// The instance registered by the body in `builder`.
        case inFlight(AnyObject, builder: FrameReference)
        /// Nothing registered yet: a cycle through initializers, across threads.
        case initializerCycle(BuildChain)
    }

    /// The instance a thread may take while the slot's owner waits, directly or not, for it; the
    /// thread reads it through `chain`.
    func take(through chain: () -> BuildChain) -> Taken {
        switch state {
        case .held(var held):
            if held.takenBy == nil {
                state = .gone
                held.takenBy = chain()
                state = .held(held)
            }
            return .held(held.object, dependency: held.dependency, holder: held.holder)
        case .building(let build):
            guard let registered = build.registered else { return .initializerCycle(build.chain) }
            return .inFlight(registered, builder: build.builder)
        case .published, .publishedWeakly, .gone:
            preconditionFailure("Assemblies: a finished slot was taken to break a cycle of waits")
        }
    }

    // MARK: Waiting

    /// Adds `waiter` to the slot, which another thread or task builds or holds, unless it waits
    /// already.
    func add(_ waiter: Waiter) {
        let isUnfinished = modifyUnfinished { waiters, _ in
            if !waiters.contains(where: { $0.identity === waiter.identity }) { waiters.append(waiter) }
        }
        precondition(isUnfinished, "Assemblies: a waiter was added to a finished slot")
    }

    /// Removes the waiter that `thread` is, if it still waits: a finished slot has none.
    func removeWaiter(_ thread: ResolverThread) {
        modifyUnfinished { waiters, _ in
            if let index = waiters.firstIndex(where: { $0.identity === thread }) { waiters.remove(at: index) }
        }
    }

    /// Changes the waiters and the dropped flag of a slot that is building or held; false, changing
    /// nothing, when it is finished or gone.
    @discardableResult
    private func modifyUnfinished(_ change: (inout [Waiter], inout Bool) -> Void) -> Bool {
        switch takeState() {
        case .building(var build):
            change(&build.waiters, &build.isDropped)
            state = .building(build)
        case .held(var held):
            change(&held.waiters, &held.isDropped)
            state = .held(held)
        case let finished:
            state = finished
            return false
        }
        return true
    }

    /// The state, moved out of the slot, which is left gone: matching on it and storing what
    /// changed moves the payload's references instead of copying them (a copy retains each and
    /// releases it again).
    private func takeState() -> State {
        var taken = State.gone
        swap(&taken, &state)
        return taken
    }

    // MARK: Building

    /// The body registered `object` with `*~>`, for the other graphs of the owner that read the slot.
    func register(_ object: AnyObject) {
        guard case .building(var build) = takeState() else {
            preconditionFailure("Assemblies: an instance was registered in a slot that isn't being built")
        }
        build.registered = object
        state = .building(build)
    }

    /// The body has returned `object`, which waits for `dependency`, a frame still being wired; or
    /// what a held slot waits for changed hands. Returns the registered instance the slot no longer
    /// keeps, and the waiters to wake when the only thread that may take the slot has changed.
    func hold(_ object: AnyObject, until dependency: FrameReference) -> (released: AnyObject?, wakeup: Wakeup?) {
        // Who built it, its chain, its waiters and whether it was dropped stay.
        let next: Held
        let previousOwner: ResolverThread
        var released: AnyObject?
        switch state {
        case .building(let build):
            previousOwner = build.owner
            released = build.registered
            next = Held(
                object: object,
                dependency: dependency,
                holder: build.owner,
                chain: build.chain,
                waiters: build.waiters,
                isDropped: build.isDropped
            )
        case .held(var held):
            previousOwner = held.owner
            held.object = object
            held.dependency = dependency
            next = held
        case .published, .publishedWeakly, .gone:
            preconditionFailure("Assemblies: a slot that isn't being built was held")
        }
        state = .held(next)
        guard next.owner !== previousOwner else { return (released, nil) }
        return (released, takeWakeup())
    }

    /// What ends the slot's build, published or given up: its waiters, all woken, and what it
    /// kept, to be released once the store's lock is let go.
    struct Ended {
        var wakeup: Wakeup?
        /// The registered or held instance the slot kept, if any.
        var instance: AnyObject?
        /// The chain of the thread that took a held instance, if one did: its keys may keep
        /// argument values alive, whose deinit must not run under the lock either.
        var takenBy: BuildChain?
        var chain: BuildChain?

        /// What the slot kept, to be released once the store's lock is let go.
        var released: [AnyObject] { [instance, takenBy].compactMap { $0 } }
    }

    /// Publishes the finished `object`. Returns, with what ended, the instance to dispose of instead
    /// when ``drop()`` dropped the slot meanwhile: the slot is then gone.
    func publish(_ object: AnyObject) -> (ended: Ended, dropped: AnyObject?) {
        guard let (ended, isDropped) = end() else {
            preconditionFailure("Assemblies: a slot that isn't being built was published")
        }
        if isDropped { return (ended, object) }
        state = scope.kind == .weakSingleton ? .publishedWeakly(WeakReference(object)) : .published(object)
        return (ended, nil)
    }

    /// Keeps a whole slot's instance weakly from now on (its family's root was released): returns
    /// it when the slot held it strongly, to be released once the store's lock is let go. A slot
    /// that isn't whole, or holds its instance weakly already, is left as it is.
    func weaken() -> AnyObject? {
        guard case .published(let object) = state else { return nil }
        state = .publishedWeakly(WeakReference(object))
        return object
    }

    /// Gives the slot up: its body threw, or its graph did before the instance was finished.
    func abandon() -> Ended {
        end()?.ended ?? Ended()
    }

    /// Marks a slot being built or held as dropped by a reset; false when it is whole (the store
    /// drops a published instance itself).
    @discardableResult
    func drop() -> Bool {
        modifyUnfinished { _, isDropped in isDropped = true }
    }

    /// Takes the waiters to wake: every one, each woken once, and no longer a waiter.
    func takeWakeup() -> Wakeup? {
        var taken: [Waiter] = []
        modifyUnfinished { waiters, _ in swap(&waiters, &taken) }
        return Self.wakeup(of: taken)
    }

    /// How to wake `waiters`, each once; nil when there are none.
    private static func wakeup(of waiters: [Waiter]) -> Wakeup? {
        guard !waiters.isEmpty else { return nil }
        var wakeup = Wakeup()
        for waiter in waiters {
            wakeup.waiters.append(waiter.identity)
            switch waiter {
            case .thread(let thread): wakeup.threads.append(thread)
            case .task(let task): if let resume = task.resume.take() { wakeup.tasks.append(resume) }
            }
        }
        return wakeup
    }

    /// Ends the build: the slot is gone until ``publish(_:)`` makes it whole. Returns, with what
    /// ended, whether a reset dropped the slot meanwhile; nil when it wasn't being built or held.
    private func end() -> (ended: Ended, isDropped: Bool)? {
        switch takeState() {
        case .building(let build):
            let wakeup = Self.wakeup(of: build.waiters)
            return (Ended(wakeup: wakeup, instance: build.registered, chain: build.chain), build.isDropped)
        case .held(let held):
            let wakeup = Self.wakeup(of: held.waiters)
            let ended = Ended(wakeup: wakeup, instance: held.object, takenBy: held.takenBy, chain: held.chain)
            return (ended, held.isDropped)
        case .published, .publishedWeakly, .gone:
            return nil
        }
    }
}
