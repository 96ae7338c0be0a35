public import CAssemblies

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The per-thread resolution state: the object graph in flight, its stack of definitions being
/// built, and a cache of the singletons this thread has already read.
///
/// Each thread has its own resolver, found through a C thread-local (``currentAddress``, ``withCurrent(_:)``), so graphs never
/// cross threads and reading or writing them takes no lock. A resolver is only ever touched by its
/// own thread, which is why its state opts out of dynamic exclusivity checks: they would cost more
/// than the rest of a resolution.
///
/// A getter makes the definition's key — for nearly every read, only its constant parts, which
/// ``enterObjectGraphRead(of:hash:name:place:file:type:)`` and
/// ``enterPrototypeRead(hash:name:place:file:type:of:)`` make it from — checks the singleton cache's
/// line for a singleton, and calls the engine's entry for its scope (one of those two,
/// ``enterObjectGraph(_:in:)``, ``enterPrototype(_:in:)``, ``enterSlowly(_:scope:in:)`` for the
/// stored scopes), out of line: it hands back an instance to return, or a frame to build one in. The
/// getter runs the body and hands the instance to ``leave(_:returning:)``.
/// Nothing of the engine is inlined into a getter but that cache check, and nothing in it is
/// generic.
///
/// Shared definitions (object graph, singleton) have an entry in a hash table whose keys stay from
/// one graph to the next; an entry belongs to the current graph while it is marked current (from its
/// first read in the graph until the graph closes).
/// Prototypes have none (except one with an explicit key, to check the key's type and scope): a
/// prototype only needs to know whether it is read straight back from its direct dependency, which
/// the frame below the top answers. A cycle made only of prototypes is found by scanning the stack
/// each time its depth doubles past ``FrameStack/firstCycleCheck``.
///
/// A top-level resolution that starts while this resolver is busy with another family's graph, or
/// releasing one, runs on a spare resolver. The resolvers of a thread share one
/// ``ResolverThread``, and a spare knows the resolver it stands in for (``outer``), so a read can
/// see every graph open on its thread: a singleton that another graph of the thread is building is
/// handed out from there, never built twice.
///
/// The unsafe constructs the resolver relies on for speed, and what keeps each of them sound, are
/// listed in `Internal/UnsafeCode.md`.
@usableFromInline
final class Resolver {
    /// Unique for the life of the process: with a frame's serial, it names a frame of any thread. A
    /// task's resolver gets a new one each time it serves another task's graph (see
    /// ``serve(_:)``).
    @exclusivity(unchecked) private(set) var number: UInt64
    /// The thread this resolver belongs to, shared by its spares; for a task's resolver, the task's
    /// record (see ``serve(_:)``).
    @usableFromInline @exclusivity(unchecked) private(set) var thread: ResolverThread
    /// A key path being evaluated to learn which definition it names (see ``OverrideCapture``). Beside
    /// ``thread``, in the resolver's first lines: a cached singleton read of an intercepted family
    /// loads both (``readsUninterceptedOutsideTasks(_:)``), and the same load from the resolver's
    /// eighth line, where this was, made that read 1.2–1.4× as slow on two threads.
    @usableFromInline @exclusivity(unchecked) var pendingCapture: OverrideCapture?
    /// The thread's ``StackLimit``, copied here so that a push reads it without following
    /// ``thread``: a frame's address `a` passes the push's check when `a &- limit < span`. A task's
    /// resolver has the stack of the thread it was last installed on (see ``runsOnStack(_:)``).
    @exclusivity(unchecked) private(set) var stack: StackLimit

    /// Makes the stack of the thread this task's resolver is being installed on the one its pushes
    /// check, inlined and out of line. Every installation of a task's resolver sets it (see
    /// ``AsyncGraph/installed(_:)`` and ``install(over:)``) before the resolver pushes anything, and
    /// between two installations the resolver runs nothing, so it never checks a stack it kept
    /// from another thread.
    @inline(__always)
    func runsOnStack(_ host: StackLimit) {
        thread.hostStack = host
        stack = host
    }

    /// Whether the stack at `address` — a local of the function pushing a frame — is above the
    /// limit (one subtraction and one compare).
    @inline(__always)
    func hasStackRoom(at address: UInt) -> Bool {
        address &- stack.limit < stack.span
    }

    // MARK: The graph in flight

    /// The graph open on this resolver: whose it is, where it keeps singletons, what intercepts it.
    @exclusivity(unchecked) var graph = OpenGraph()

    /// The graph open on a resolver, if any.
    struct OpenGraph {
        /// The family whose top-level resolution owns the graph, or 0 when no graph is open
        /// (``Resolver/graphsOfTheirOwn`` while ``Resolver/inGraphOfItsOwn(_:)`` runs its body).
        var familyID: UInt64 = 0
        /// That family, unretained: the assembly whose read opened the graph keeps it alive until the
        /// graph closes.
        unowned(unsafe) var family: Family?
        /// Where the graph finds and keeps singletons, unretained: its family's store, or an override
        /// context's (which ``Interception/contextSingletons`` keeps).
        unowned(unsafe) var store: SingletonStore?
        /// Set while the graph closes and releases what it built.
        var isClosing = false
        /// Whether the graph's reads are intercepted: its task overrides the family, or its reads are
        /// reported. Each read of the graph then goes through
        /// ``Resolver/decideIntercepted(_:scope:in:isInGraph:suspends:)``.
        var isIntercepting = false
        /// What intercepts such a graph; nil while ``isIntercepting`` is false. The fast paths read
        /// the flag rather than test this for nil, which costs the graph of 10 sixteen instructions.
        var interception: Interception?
        /// The interception's observation, unretained, for the graph's reports (see
        /// ``Resolver/TraceFrame/ownsObservation``): the interception keeps it until the graph closes.
        var observation: Unmanaged<Observation>?
        /// How many reports were open when the graph began: every report of a read in the graph ends
        /// before it closes, and those above this count refer to its observation unretained.
        var reportFloor = 0
        /// The values the provider call that opened the graph carries into it, if any.
        var arguments: GraphArguments?
    }

    /// What intercepts a graph opened while its family was overridden by the task or observed.
    struct Interception {
        /// The task's override context, and its singletons (which ``OpenGraph/store`` doesn't
        /// retain).
        let context: OverrideContext?
        let contextSingletons: SingletonStore?
        /// What the graph reports its reads to.
        let observation: Observation?
    }
    /// The reads being reported on this resolver, innermost last (see ``beginReport(_:scope:source:to:inGraph:)``).
    @exclusivity(unchecked) var traceFrames = TraceFrames()
    /// The shared definitions this thread has read, and what the current graph has of each.
    @exclusivity(unchecked) var entries: GraphEntries
    /// Entries of the current graph whose keys carry argument values, each with the key that keeps
    /// its values alive until the graph closes; then the table's keys drop them, so that it keeps no
    /// argument alive.
    @exclusivity(unchecked) var argumentEntries: [(index: Int32, key: StoredKey)] = []
    /// The definitions being built, innermost last.
    @exclusivity(unchecked) var frames: FrameStack

    /// A slot that a frame of this resolver builds: what the thread knows of it without the store's
    /// lock.
    struct SlotBuild {
        let slot: SingletonSlot
        let store: SingletonStore
        /// Whether its family checks captive dependencies (see ``SlotBuilds/watchedCount``).
        let isWatched: Bool
        /// The chain the claim made, which the slots claimed above it extend.
        let chain: BuildChain
        /// The frame that builds it, and that frame's serial.
        let frame: Int
        let serial: UInt64
    }

    // MARK: Hooks

    /// A hook a definition body added, waiting for its instance to be finished.
    struct Hook {
        /// The frame's serial.
        let serial: UInt64
        /// Whether it waits for the whole graph (``Definition/afterAllInjections(_:)``).
        let isDeferred: Bool
        let run: (Any) -> Void
    }

    /// The hooks of the definitions being built, and the steps of the graph.
    @exclusivity(unchecked) var hooks = Hooks()

    /// What runs when instances are finished.
    struct Hooks {
        /// Hooks of the definitions being built, innermost last.
        var waiting: [Hook] = []
        /// Steps that run when the outermost definition has returned, in the order they were queued
        /// (``Definition/afterAllInjections(_:)``).
        var steps: [() -> Void] = []
    }

    // MARK: Singletons

    /// The slots this resolver's frames are building, innermost last.
    @exclusivity(unchecked) var building = SlotBuilds()

    /// The slots a resolver's frames are building, innermost last, and how many of them belong to a
    /// family that checks captive dependencies: while there is one, each object-graph read leaves
    /// the fast path for ``Resolver/enter(_:scope:)``, which checks it (see
    /// ``Resolver/checkCaptive(_:scope:)``). Added and removed only here, so the count stays true.
    struct SlotBuilds {
        /// Innermost last.
        private(set) var all: [SlotBuild] = []
        private(set) var watchedCount = 0

        /// The innermost, if any.
        var last: SlotBuild? { all.last }

        /// The innermost that satisfies `predicate`, if any.
        func last(where predicate: (SlotBuild) -> Bool) -> SlotBuild? {
            all.last(where: predicate)
        }

        /// Adds `build`, innermost.
        mutating func append(_ build: SlotBuild) {
            if build.isWatched { watchedCount += 1 }
            all.append(build)
        }

        /// Removes the innermost, and returns it.
        @discardableResult
        mutating func removeLast() -> SlotBuild {
            let build = all.removeLast()
            if build.isWatched { watchedCount -= 1 }
            return build
        }
    }

    /// Whether a stored definition of a family that checks captive dependencies is being built. In
    /// a release build of the library nothing is checked: this is false, and costs no instruction.
    @inline(__always)
    var isWatchingCaptives: Bool {
        #if DEBUG
        building.watchedCount != 0
        #else
        false
        #endif
    }
    /// The frame count at which ``Assembly/intentionallyCaptive(_:)`` marked a read, or -1.
    @exclusivity(unchecked) var intentionalCaptiveFrame = -1
    /// What of this resolver's in-flight instances was handed out, and to whom.
    @exclusivity(unchecked) var handouts = Handouts()
    /// What the graph holds back until it can let go: stored instances waiting to be published, weak
    /// singletons kept alive, instances to dispose of.
    @exclusivity(unchecked) var held = Held()

    /// A stored instance waiting to be published.
    struct Pending {
        let slot: SingletonSlot
        let store: SingletonStore
        let object: AnyObject
    }

    /// What a graph holds back until it can let go of it.
    struct Held {
        /// Stored instances finished on this thread that wait for ``Handouts/lowest`` to finish.
        var untilHandoutsFinish: [Pending] = []
        /// Stored instances finished while the graph has `afterAllInjections` steps to run, waiting
        /// for them (see ``Resolver/runDeferredSteps()``) — and, once another thread took one of them
        /// (``Handouts/ofHeldInstances``), those finished meanwhile by graphs opened above this one on
        /// the thread, of any family, which wait for the same steps (see ``Resolver/settle(_:)``).
        var untilSteps: [Pending] = []
        /// Weak singletons built in the graph, and the instances of a store that keeps them weakly
        /// since its family's root was released, kept alive until it closes.
        var aliveUntilClose: [AnyObject] = []
        /// Instances that ``Assembly/reset(_:)`` dropped while the graph built them, disposed of when
        /// it closes.
        var toDisposeAtClose: [AnyObject] = []
    }

    /// The instances of a resolver's frames that were handed out while still being wired — to a
    /// back-reference in a cycle, or to another thread that broke a cycle of waits — and who took
    /// them.
    struct Handouts {
        /// The lowest such frame, or `Int.max`: one compare when a frame is left. A stored instance
        /// finished above it may point at that unfinished instance, so it waits (see ``Held/untilHandoutsFinish``)
        /// until the frame has finished.
        var lowest = Int.max
        /// Who first took the in-flight instance of a frame, by frame index — the definition whose
        /// body took it, or nil for another thread — so that a body that throws after its own
        /// instance was taken names the taker (see ``undo(_:)``). Read only for a frame flagged
        /// ``FrameFlags/handedOut``: an entry is written when its frame is flagged, and outlives it
        /// until the next one at that index, which costs nothing to leave behind.
        var takers: [DefinitionKey?] = []
        /// The definitions between a frame and its taker, for frames flagged
        /// ``FrameFlags/handedOutInALongerCycle``, by frame index: apart, so that ``takers`` stays
        /// trivial to copy.
        /// (Made with `init()`, which is inlined: the literal `[:]` called the standard library's
        /// `init(dictionaryLiteral:)` when each resolver was made — code a thread's first read
        /// then faulted in.)
        var takerPaths = [Int: [DefinitionKey]]()
        /// The frames whose in-flight instances other threads took (see ``WaitRegistry``).
        var toOtherThreads: [FrameReference] = []
        /// Set when another thread took an instance of ``Held/untilSteps``: the resolver depends on
        /// ``stepsFrame`` until the steps have run.
        var ofHeldInstances = false

        /// Whether a frame's instance, or one held for the graph's steps, is out.
        var isEmpty: Bool { lowest == .max && !ofHeldInstances }

        /// Counts `frame` among the handed out.
        @inline(__always)
        mutating func add(_ frame: Int) {
            if frame < lowest { lowest = frame }
        }
    }

    /// The singletons this resolver has read, in front of their families' stores.
    @usableFromInline @exclusivity(unchecked) var singletonCache = SingletonCache()

    // MARK: Other state

    /// The family a collaborator being created joins, or the configuration a root being created
    /// with `init(configuration:)` starts its family with.
    var assemblyInCreation: AssemblyInCreation?
    /// A resolver for a top-level resolution that starts while this one is busy with another family.
    var spare: Resolver?
    /// While a read has installed this resolver as its thread's current one (see
    /// ``install(over:)``): what to put back when the read's frame is left.
    var installation: Installation?

    /// How a read installed a resolver over its thread's current one.
    struct Installation {
        /// The resolver it replaced: its thread's own or an outer one, alive for as long as the read
        /// runs.
        let over: Unmanaged<Resolver>
        /// Set when this is a task's resolver installed by a thread's synchronous read that joined
        /// the task's graph: the host it replaced (see ``ResolverThread/host``).
        var joinedThread: JoinedThread?

        struct JoinedThread {
            let replacedHost: ObjectIdentifier?
        }

        init(over: Unmanaged<Resolver>, joinedThread: JoinedThread? = nil) {
            self.over = over
            self.joinedThread = joinedThread
        }
    }
    /// What this resolver's last lookup of a task's async graph found (see ``TaskGraphs/Memo``).
    @exclusivity(unchecked) var taskGraphMemo = TaskGraphs.Memo()
    /// For a spare resolver: the resolver it stands in for (which owns it).
    unowned var outer: Resolver?
    /// For a spare resolver: the read that crossed over from another family, and how deep.
    var crossing = Crossing()

    /// A top-level read of one family made while a graph of another is open on the thread.
    struct Crossing {
        /// The read that crossed over, while the spare is installed for it; nil for a graph of its
        /// own (see ``Resolver/inGraphOfItsOwn(_:)``).
        var key: StoredKey?
        /// How many resolutions of other families this one is nested in.
        var depth = 0
    }
    /// Beyond this many nested crossings between families, a resolution is a cycle that can't close.
    static let crossingLimit = 32

    /// A number no other resolver of the process has: a resolver's ``number``.
    static func nextNumber() -> UInt64 {
        assemblies_next_resolver_number()
    }

    /// A resolver for `thread`; a new thread when nil.
    init(thread: ResolverThread? = nil) {
        number = Self.nextNumber()
        let thread = thread ?? ResolverThread()
        self.thread = thread
        stack = thread.stack
        entries = GraphEntries()
        frames = FrameStack()
    }

    /// Whether nothing is open or held here: no graph, frame, hook, report or instance held back —
    /// what a resolver is between two top-level reads.
    var isIdle: Bool {
        graph.familyID == 0 && !graph.isClosing && frames.count == 0 && entries.isEmpty && hooks.waiting.isEmpty
            && hooks.steps.isEmpty && traceFrames.isEmpty && handouts.isEmpty && handouts.toOtherThreads.isEmpty
            && building.last == nil && held.untilHandoutsFinish.isEmpty && held.untilSteps.isEmpty
            && held.aliveUntilClose.isEmpty && held.toDisposeAtClose.isEmpty && installation == nil
            && pendingCapture == nil && assemblyInCreation == nil && argumentEntries.isEmpty
            && intentionalCaptiveFrame == -1
    }

    /// Makes this resolver — a task's graph's that has ended, idle, which nothing else holds — the
    /// resolver of `task`'s graph. It keeps what it kept from one graph to the next — its keys and
    /// their entries, and the buffers of its frames and of the entries its graphs touch — so a task's
    /// graph starts with the keys the last one on this thread read, as a thread's does, and allocates
    /// nothing for them. It gets a new ``number``, so that a `Definition` kept from its last graph
    /// names none of its frames (see ``resolver(of:key:)``), and forgets its spare, which belonged to
    /// the last task, and the singletons it cached for it. Its record becomes `task`'s when nothing
    /// else holds it any more (see ``ResolverThread/restart(for:)``); a new one otherwise.
    func serve(_ task: TaskIdentity) {
        // `recycle` kept this resolver only if it was idle, and nothing else has held it since.
        assert(isIdle && thread.isTask, "Assemblies: a resolver in use was given to another task")
        number = Self.nextNumber()
        spare = nil
        if isKnownUniquelyReferenced(&thread) {
            thread.restart(for: task)
        } else {
            thread = ResolverThread(task: task)
            stack = thread.stack
        }
        singletonCache.deallocate()
        singletonCache = SingletonCache()
        #if DEBUG
        Self.graphsServed.increment()
        #endif
    }

    #if DEBUG
    /// How many times a task's resolver has served another task's graph, for tests.
    static let graphsServed = AtomicCount()
    #endif

    deinit {
        singletonCache.deallocate()
        traceFrames.deallocate()
        entries.deallocate()
        frames.deallocate()
    }

    // MARK: Finding the current resolver

    /// This thread's current resolver, unretained: its own, or one installed while a call runs (a
    /// spare, an async graph's).
    @inlinable
    @inline(__always)
    static var currentAddress: UnsafeMutableRawPointer {
        assemblies_resolver() ?? makeCurrentResolver()
    }

    /// Calls `body` with this thread's current resolver, without retaining it.
    @inlinable
    @inline(__always)
    static func withCurrent<Result>(_ body: (Resolver) -> Result) -> Result {
        Unmanaged<Resolver>.fromOpaque(currentAddress)._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with this thread's current resolver, if the thread has made one; nil otherwise.
    static func withExisting<Result>(_ body: (Resolver) -> Result?) -> Result? {
        guard let address = assemblies_resolver() else { return nil }
        return Unmanaged<Resolver>.fromOpaque(address)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` with `resolver` installed as this thread's current one, then puts back the one
    /// that was. The caller keeps `resolver` alive meanwhile.
    func installed<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        let previous = assemblies_resolver()
        assemblies_set_resolver(Unmanaged.passUnretained(self).toOpaque())
        defer { assemblies_set_resolver(previous) }
        return try body()
    }
}

/// Makes this thread's resolver, the first time the thread resolves anything. (A function of its
/// own, not a static method of the class, so that a getter's call of it passes no metatype.)
@usableFromInline
@inline(never)
func makeCurrentResolver() -> UnsafeMutableRawPointer {
    // Balanced by the key's destructor when the thread exits; the pthread key is there for that
    // destructor alone.
    let raw = Unmanaged.passRetained(Resolver()).toOpaque()
    pthread_setspecific(resolverKey, raw)
    assemblies_set_thread_resolver(raw)
    assemblies_set_resolver(raw)
    return raw
}

extension Resolver {
    /// The record of the thread running now, whatever resolver is installed on it: a task's, or a
    /// spare, have records of their own. What a synchronous wait that must tell "this thread" from
    /// "another thread" compares: a read made while a task's graph is installed here is still made
    /// on this thread, below whatever else this thread is doing.
    static var threadRecord: ResolverThread {
        guard let raw = assemblies_thread_resolver() else {
            // No read on this thread has made its own resolver yet: nothing is installed either.
            return withCurrent { $0.thread }
        }
        return Unmanaged<Resolver>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.thread }
    }
}

/// The pthread key whose destructor releases each thread's own ``Resolver`` when the thread exits.
let resolverKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let result = pthread_key_create(&key) { raw in
        assemblies_set_resolver(nil)
        assemblies_set_thread_resolver(nil)
        Unmanaged<Resolver>.fromOpaque(raw).release()
    }
    #else
    let result = pthread_key_create(&key) { raw in
        assemblies_set_resolver(nil)
        assemblies_set_thread_resolver(nil)
        if let raw { Unmanaged<Resolver>.fromOpaque(raw).release() }
    }
    #endif
    precondition(result == 0, "Assemblies: pthread_key_create failed with \(result)")
    return key
}()
