internal import CAssemblies

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The context shared by a root assembly and every assembly reached from it: the assemblies
/// themselves (one per type), the singletons, and a unique identity.
///
/// Ownership: the root assembly and every collaborator hold the family strongly; the family holds
/// collaborators strongly and the root not at all — by its address, which the root's `deinit`
/// clears (see ``RootReference``). When the root is released, the family lets go of
/// its collaborators and of every instance its store keeps (``SingletonStore/releaseInstances()``),
/// so nothing cycles — not even a singleton that holds a collaborator, or a closure that captured
/// one. A read that would open a graph of the family after the root is released stops
/// (``requireOpen(reading:)``); a provider holds the family weakly (``ProvidedFamily``).
@usableFromInline
final class Family: Sendable {
    /// Unique for the life of the process, so a per-thread cache can never mistake a new family
    /// for a released one at the same address.
    @usableFromInline let id: UInt64
    /// How many override contexts of this family exist in any task, plus key paths being
    /// captured, plus one while it has an ``Observation``, plus one once its root is released, plus
    /// one once it began to shut down. While it is zero, no read looks for a
    /// task's overrides or reports itself, and singletons come from the per-thread caches: a read
    /// checks this one word first.
    @usableFromInline let interceptCount: AtomicCount
    /// How many of the reasons that intercept every reader of the family hold: an ``Observation``,
    /// a capture by ``Overrides/replace(isolation:awaiting:scope:whenUnused:with:)``, the root's
    /// release, the beginning of its shutdown (each counts in ``interceptCount`` and in a count of its
    /// own too). While it is zero, only overrides intercept the family, and a read checks only whether
    /// the current task or thread applies them (see ``Resolver/readsUnintercepted(_:)``).
    @usableFromInline let everyReaderCount: AtomicCount
    /// How many async graphs of this family are open, in any task (see ``AsyncGraph``). While it is
    /// zero, a top-level read doesn't look for the current task's graph to join.
    let openAsyncGraphs: AtomicCount
    /// One while the family has an ``Observation`` (it counts in ``interceptCount`` too): a read of an
    /// intercepted family takes the family's lock to find the observation only while this is nonzero.
    let observedCount: AtomicCount
    /// How many ``Overrides/replace(isolation:awaiting:scope:whenUnused:with:)`` calls are finding
    /// out which definition their closure reads (they count in ``interceptCount`` too). While it is
    /// zero, an intercepted read doesn't look for ``OverrideCapture/pending``.
    let asyncCaptures: AtomicCount
    /// One once the root has been released, and one once the family began to shut down (each counts
    /// in ``interceptCount`` too): a read that would open a graph of the family then stops instead
    /// (see ``requireOpen(reading:)``).
    private let rootReleased: AtomicCount
    private let shutdownBegan: AtomicCount
    /// The memory of the counts above, each on lines of its own (see ``AtomicCount``).
    private let counts = AtomicCounts(count: 7)
    /// The singletons, weak singletons and resettable scopes' instances.
    @usableFromInline let singletons = SingletonStore()
    /// The values the root was created with; immutable, so read without a lock.
    let configuration: FamilyConfiguration
    /// The family's mutable state, under one lock (one generic box to instantiate when the first
    /// family of a program is made).
    private let state = Locked(State())

    private struct State {
        /// What the family's reads are reported to, if anything (see ``Observation``).
        var observation: Observation?
        /// What the family does with captive dependencies, and those it has reported.
        var captives = CaptiveState()
        /// The first definition read under each explicit key, to catch the key used for another type.
        var explicitKeys: [DefinitionKey: DefinitionKey] = [:]
        var assemblies: [ObjectIdentifier: Assembly] = [:]
        /// The root, until its `deinit` begins (see ``RootReference``).
        var root: RootReference?
        var isActivated = false
        var isActivatedAsynchronously = false
        var shutdown = FamilyShutdown<Resumption>.running
    }

    /// The families whose async eager singletons the current task is building (see
    /// ``activateAsynchronously(isolation:_:)``).
    @TaskLocal private static var activatingAsynchronously: [UInt64] = []

    init(configuration: FamilyConfiguration) {
        self.configuration = configuration
        id = assemblies_next_family_number()
        interceptCount = counts[0]
        everyReaderCount = counts[1]
        openAsyncGraphs = counts[2]
        observedCount = counts[3]
        asyncCaptures = counts[4]
        rootReleased = counts[5]
        shutdownBegan = counts[6]
    }

    /// Whether a read may have to look for the current task's overrides of this family, or report
    /// to its observation.
    @inlinable
    @inline(__always)
    var isIntercepted: Bool { !interceptCount.isZero }

    /// What the family's reads are reported to now, if anything.
    var observation: Observation? { observedCount.isZero ? nil : state.withLock { $0.observation } }

    /// Calls `body` with the family's observation, which it may replace, under the family's lock.
    func withObservation<Result>(_ body: (inout Observation?) -> Result) -> Result {
        state.withLock { body(&$0.observation) }
    }

    /// Calls `body` with the family's captive-dependency state, under the family's lock.
    func withCaptives<Result>(_ body: (inout CaptiveState) -> Result) -> Result {
        state.withLock { body(&$0.captives) }
    }

    deinit {
        // Nothing reads the counts now: each reader holds the family (an assembly's `family`).
        counts.deallocate()
    }

    // MARK: Assemblies

    func adopt(root: Assembly) {
        state.withLock { state in
            state.root = RootReference(root)
        }
    }

    func rootWillDeinit(_ assembly: Assembly) {
        let collaborators: [Assembly]? = state.withLock { state in
            guard state.root?.refers(to: assembly) == true else { return nil }
            // From here on, nothing takes a reference to the root, whose memory is freed after this
            // deinit: an assembly made later at the same address is not the root.
            state.root = nil
            rootReleased.increment()
            everyReaderCount.increment()
            interceptCount.increment()
            defer { state.assemblies = [:] }
            return Array(state.assemblies.values)
        }
        guard let collaborators else { return }
        let instances = singletons.releaseInstances()
        // Released here, outside every lock, because their deinit runs user code: a deinit that
        // reads the family stops, as every read after the root's release does.
        _ = (collaborators, instances)
    }

    /// Whether the root has been released: the family has let go of its collaborators.
    var isOrphaned: Bool { !rootReleased.isZero }

    /// Whether the root has been released or the family began to shut down: its singletons no
    /// longer come from the caches, so that each read meets ``requireOpen(reading:)``.
    var isClosing: Bool { !rootReleased.isZero || !shutdownBegan.isZero }

    /// Stops a read of `key` that would open a graph of the family once its root is released, or once
    /// it began to shut down. Graphs already open finish; every read after them stops here, whatever
    /// reaches the family — a collaborator kept beyond the root, a closure that captured one.
    func requireOpen(reading key: DefinitionKey) {
        if isOrphaned { Failure.readAfterRootReleased(key, root: configuration.rootType) }
        if refusesNewReads { Failure.readAfterShutdownBegan(key, root: configuration.rootType) }
    }

    /// Whether the family began to shut down, and refuses new reads from this task (the task that
    /// shuts it down may still read it).
    var refusesNewReads: Bool { !shutdownBegan.isZero && Self.shuttingDownInThisTask != id }

    /// The family whose instances this task is shutting down, which its shutdowns may read (a
    /// logger, say), or 0.
    @TaskLocal private static var shuttingDownInThisTask: UInt64 = 0

    // MARK: Shutting down

    /// Shuts the family down, once (see ``Assembly/shutDown()``): refuses new top-level reads, waits
    /// for the stored instances being built, then shuts down every instance that declared a
    /// shutdown, the last built first, each once, and throws what they threw.
    func shutDown() async throws(ShutdownError) {
        // A shutdown that shuts its own family down again would wait for itself.
        if Self.shuttingDownInThisTask == id { return }
        if AsyncGraph.ofCurrentTask(of: self) != nil {
            // The shutdown would wait for the instance this body is building, which waits for it.
            Failure.shutdownInsideARead(configuration.rootType)
        }
        switch state.withLock({ $0.shutdown.call() }) {
        case .returnAtOnce:
            return
        case .waitForTheFirstCall:
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                if !state.withLock({ $0.shutdown.wait(Resumption(finished)) }) { finished.resume() }
            }
            return
        case .shutDown:
            break
        }
        shutdownBegan.increment()
        everyReaderCount.increment()
        interceptCount.increment()
        // Reads that were running when the shutdown began may build more while the first instances
        // shut down: those are shut down next. The shutdowns may read the family.
        let failures = await singletons.shutDownInstances { shutdown in
            try await Self.$shuttingDownInThisTask.withValue(id) { try await shutdown() }
        }
        // Shut down: the store keeps nothing more, so that a singleton that holds the root (or a
        // closure that captured it) no longer keeps the family alive.
        _ = singletons.releaseInstances()
        for waiter in state.withLock({ $0.shutdown.finish() }) {
            waiter.resume()
        }
        if !failures.isEmpty { throw ShutdownError(failures: failures) }
    }

    /// The root assembly, while it is alive.
    var root: Assembly? { state.withLock { $0.root?.retained() } }

    /// The family's instance of `type`: the root when it is one, else the collaborator, made on first
    /// use — or, in a task whose overrides replace `type` by a subclass, that task's instance of it.
    func assembly<A: Assembly>(of type: A.Type) -> A {
        if isIntercepted, let context = OverrideContext.innermost(for: self),
            let substitute = context.substitute(for: type)
        {
            return unsafeDowncast(context.assembly(of: substitute, in: self), to: A.self)
        }
        // The root is cast once the lock is let go: the strong reference taken here may be its last
        // one, whose release runs the root's deinit, which takes the lock.
        let (root, found): (Assembly?, Assembly?) = state.withLock { state in
            (state.root?.retained(), state.assemblies[ObjectIdentifier(type)])
        }
        if let root = root as? A { return root }
        if let found { return unsafeDowncast(found, to: A.self) }
        let made = Resolver.withCurrent { resolver in resolver.makeAssembly(type, in: self) }
        return state.withLock { state in
            if isOrphaned { return made }  // set under this lock, in rootWillDeinit
            if let raced = state.assemblies[ObjectIdentifier(type)] { return unsafeDowncast(raced, to: A.self) }
            state.assemblies[ObjectIdentifier(type)] = made
            return made
        }
    }

    /// Runs `build` (which reads the eager singletons) unless the family is activated, then marks
    /// it activated.
    ///
    /// No lock is held while `build` runs. Threads that activate the family at the same time each
    /// run `build`: each singleton is still built once (the others wait for the one being built, see
    /// ``SingletonStore``), and each call returns once all of them exist. A call made from within
    /// `build` on the same thread — a body or hook that activates its own family — returns at once.
    func activate(_ build: () -> Void) {
        guard !state.withLock({ $0.isActivated }) else { return }
        let thread = Resolver.withCurrent { $0.thread }
        guard !thread.activatingFamilies.contains(id) else { return }
        thread.activatingFamilies.append(id)
        build()
        thread.activatingFamilies.removeAll { $0 == id }
        state.withLock { $0.isActivated = true }
    }

    /// Runs `build` (which awaits the async eager singletons) unless the family's async eager
    /// singletons are built, then marks them built; if `build` throws, the next call runs it again.
    ///
    /// Like ``activate(_:)``, it holds no lock while `build` runs: tasks that activate the family at
    /// the same time each run `build`, and each singleton is still built once. A call made from
    /// within `build` in the same task, or a child task of it, returns at once.
    func activateAsynchronously(
        isolation: isolated (any Actor)?,
        _ build: () async throws -> Void
    ) async throws {
        guard !state.withLock({ $0.isActivatedAsynchronously }) else { return }
        let activating = Self.activatingAsynchronously
        guard !activating.contains(id) else { return }
        try await Self.$activatingAsynchronously.withValue(activating + [id], operation: build, isolation: isolation)
        state.withLock { $0.isActivatedAsynchronously = true }
    }

    // MARK: Explicit keys

    /// Stops when `key`, an explicit key, was first read in this family as another type.
    func checkExplicitKey(_ key: DefinitionKey) {
        let slot = key.withoutArguments
        let first = state.withLock { state in
            if let first = state.explicitKeys[slot] { return first }
            state.explicitKeys[slot] = slot
            return slot
        }
        key.requireSameType(as: first)
    }
}
