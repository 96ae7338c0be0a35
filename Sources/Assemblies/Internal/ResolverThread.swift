internal import CAssemblies

/// One thread, as the singleton stores see it: the identity that owns the singletons the thread
/// builds, and what it waits for.
///
/// Every resolver of a thread (its own and the spares it opens for nested top-level reads) shares
/// one `ResolverThread`, so "built by this thread" covers every graph open on it. The fields marked
/// *registry* belong to ``WaitRegistry`` and are only touched while its lock is held; the others
/// only by the thread itself. Like a resolver's state, they opt out of dynamic exclusivity checks,
/// which see only one thread's accesses and cost more than the accesses themselves.
@usableFromInline
final class ResolverThread: @unchecked Sendable {
    // @unchecked: see above — registry fields under `WaitRegistry.lock`, the rest thread-confined.

    /// A number for messages, in the order threads first resolved something (a task's record: in
    /// the order tasks opened their graphs; see ``restart(for:)``).
    @exclusivity(unchecked) private(set) var number: Int
    /// The thread's name when it first resolved something, as the system gave it: decoded only
    /// when a message or a report needs it (see ``name``), not by the thread's first read.
    private let nameBytes: ThreadNameBytes
    /// ``name``, decoded once for the thread's reports, which it makes itself (see
    /// ``nameForReports``). Touched by the thread only.
    @exclusivity(unchecked) private var decodedName: String?
    /// Where resolution stops with a message before the stack overflows. A task's has a span of 0,
    /// which no address passes: its graphs' resolvers check the stack of the thread they are
    /// installed on (see ``Resolver/runsOnStack(_:)``), and their spares ``currentStack``, out of
    /// line.
    let stack: StackLimit
    /// For a task: the stack of the thread it runs on now, set whenever one of its graphs' resolvers
    /// is installed there (see ``AsyncGraph/installed(_:)``). Touched by the task only.
    @exclusivity(unchecked) var hostStack = StackLimit(limit: 0, span: .max, lowest: 0)
    /// The stack a push checks out of line: the thread's own, or the one the task runs on now.
    var currentStack: StackLimit { isTask ? hostStack : stack }
    /// The task this stands for, rather than a thread: the one whose `await` reads open the graphs
    /// (see ``AsyncGraph``), on whichever threads it runs. Only compared, and only until ``end()``
    /// — while the task runs its outermost graph's top-level read, so that no other task can have
    /// its address. Changes only in ``restart(for:)``.
    @exclusivity(unchecked) private(set) var task: TaskIdentity?
    /// For a task: its count, which is nonzero once its outermost graph has ended (see ``end()``),
    /// until ``restart(for:)``.
    private let endedCount: AtomicCounts?
    private var ended: AtomicCount? { endedCount?[0] }

    /// Whether this stands for a task rather than a thread.
    let isTask: Bool

    /// How many synchronous ``Overrides/apply(whenUnused:_:)`` calls are open on this thread: the only
    /// way a thread outside any task sees an override (a task-local bound outside a task lives in
    /// the thread). While it is 0 and no task runs, a read skips the task-local lookup (see
    /// ``OverrideContext/innermost(for:)``). Changed only by `apply`, on the current resolver's
    /// record: +1 before its body and −1 in a `defer`, on the record it incremented. That is this
    /// thread's, or — when `apply` runs in a synchronous read that joined a task's graph — the
    /// task's, whose resolver is current only while the task runs, on one thread at a time; its
    /// reads are in a task, so they look the override up whatever the count.
    @usableFromInline @exclusivity(unchecked) var synchronousApplies = 0

    /// Whether this stands for the task that is running now: code on whatever thread it runs that is
    /// part of the same work as the task's graphs. False once the identity has ended: a task
    /// allocated where this one was, after it ended, would compare equal.
    var isCurrentTask: Bool {
        guard let ended, ended.isZero, let task else { return false }
        return TaskIdentity.current == task
    }

    /// Ends a task's identity, when the top-level read of its outermost graph has returned or
    /// thrown.
    func end() {
        ended?.increment()
    }

    /// Makes this record — a task's, whose outermost graph has ended, and which nothing but the
    /// resolver that served that graph holds — the record of `task`, for the graph that resolver
    /// serves next (see ``Resolver/serve(_:)``), so that opening a graph allocates no record.
    ///
    /// Nothing else holding it is what makes this sound: a slot it built, a wait, a frame reference
    /// or a thread it joined would each hold it, and would see another task in it. Its waits and
    /// dependencies are over with its graph, and checked here.
    func restart(for task: TaskIdentity) {
        guard let ended, !ended.isZero else {
            preconditionFailure("Assemblies: a record in use was given to another task")
        }
        precondition(
            host == nil && synchronousApplies == 0 && activatingFamilies.isEmpty && !isReporting,
            "Assemblies: a task's record was given to another task with work of its own"
        )
        // The registry's fields under its lock, as always: the last thread that changed them did so
        // under it.
        WaitRegistry.lock.withLock {
            precondition(
                waitingFor == nil && foreignDependencies.isEmpty && inbox.isEmpty,
                "Assemblies: a task's record was given to another task while it waited"
            )
            isPinned = false
        }
        number = Int(truncatingIfNeeded: assemblies_next_thread_number())
        self.task = task
        ended.decrement()
        mayHaveForeignDependencies = false
        #if DEBUG
        Self.restarts.increment()
        #endif
    }

    #if DEBUG
    /// How many times a task's record has been restarted for another task, for tests.
    static let restarts = AtomicCount()
    #endif

    /// For a task: set when a thread took an instance across a cycle of waits that ran through this
    /// task (see ``WaitRegistry``). The thread then relies on the task not leaving its wait, so the
    /// task no longer leaves one when cancelled. It stays set for the rest of the task's top-level
    /// graph, until the record ends with it (or is restarted for another task's graph, see
    /// ``restart(for:)``): the thread may rely on any wait of that graph until it ends. Registry
    /// field.
    @exclusivity(unchecked) var isPinned = false

    /// For a task: the thread whose synchronous read joined the task's graph, while it runs there
    /// (see ``Resolver/install(over:)``). Only compared, never followed, so it keeps nothing alive:
    /// the thread's own resolver holds its record for as long as the read runs.
    @exclusivity(unchecked) var host: ObjectIdentifier?

    /// Whether the code of `reader`, a thread or task other than this one, runs below code of this
    /// one on the same thread: this is the task running now, or the thread whose read joined
    /// `reader`'s graph. A slot this one owns then waits for code that can't go on before `reader`
    /// returns.
    func isBelow(_ reader: ResolverThread) -> Bool {
        isTask ? isCurrentTask : reader.host == ObjectIdentifier(self)
    }

    /// For a thread: the last top-level async graph that ended on it, kept without its family, which
    /// the next one that opens here reopens (see ``AsyncGraph/recycle(_:)``). Touched by the thread
    /// only.
    @exclusivity(unchecked) var lastTaskGraph: AsyncGraph?

    /// The families whose eager singletons this thread is building (see ``Family/activate(_:)``).
    @exclusivity(unchecked) var activatingFamilies: [UInt64] = []
    /// Set when the thread takes an instance from another thread (see ``WaitRegistry``); cleared
    /// when it finds it depends on none. While it is clear, the thread has no foreign dependency:
    /// only a thread that already has one is given another by other threads.
    @exclusivity(unchecked) var mayHaveForeignDependencies = false
    /// Set while a read is delivered to an observer: the reads the observer makes, on any resolver
    /// of the thread, are not reported.
    @exclusivity(unchecked) var isReporting = false

    // MARK: Registry fields

    /// What the thread is blocked on, if anything.
    @exclusivity(unchecked) var waitingFor: Wait?
    /// Where the thread sleeps while it waits for another one (see ``wait(until:)``), made by its
    /// first wait — a task's `await` reads suspend instead, but its synchronous reads block the
    /// thread it runs on like any thread's. Woken through ``WaitRegistry``.
    @exclusivity(unchecked) var parker: Parker?
    /// In-flight instances of other threads' frames that this thread took to break a wait-for
    /// cycle: until those frames finish, nothing this thread builds may be published.
    @exclusivity(unchecked) var foreignDependencies: [FrameReference] = []
    /// Frames of this thread that other threads took instances from while it was blocked; the
    /// thread marks them as handed out when it wakes.
    @exclusivity(unchecked) var inbox: [FrameReference] = []

    /// What a blocked thread waits for.
    enum Wait {
        /// A singleton slot of `store`, built (or waiting to be published) by `owner`.
        /// `blocks`: a synchronous read, blocked, which takes an instance to break a cycle of waits
        /// it finds; else a task's `await` read, suspended, which can't.
        case slot(SingletonSlot, owner: ResolverThread, store: SingletonStore, blocks: Bool)
        /// The frames of other threads this thread depends on.
        case frames
    }

    init() {
        number = Int(truncatingIfNeeded: assemblies_next_thread_number())
        nameBytes = ThreadNameBytes.ofCurrentThread()
        stack = StackLimit.ofCurrentThread()
        task = nil
        isTask = false
        endedCount = nil
    }

    /// The identity of a task's async graphs. A task has no stack of its own: its `await` reads keep
    /// their frames on the heap, and the synchronous reads it makes run on the stack of whichever
    /// thread it is on at the time: ``hostStack``, which its resolvers check (see
    /// ``Resolver/runsOnStack(_:)``).
    init(task: TaskIdentity) {
        number = Int(truncatingIfNeeded: assemblies_next_thread_number())
        nameBytes = ThreadNameBytes()
        stack = StackLimit(limit: 0, span: 0, lowest: 0)
        self.task = task
        isTask = true
        endedCount = AtomicCounts(count: 1)
    }

    deinit {
        endedCount?.deallocate()
    }

    /// The thread's name when it first resolved something, or empty: for messages, from any thread.
    var name: String { nameBytes.string }

    /// ``name``, for a report the thread makes of one of its reads: decoded the first time only.
    var nameForReports: String {
        if let decodedName { return decodedName }
        let name = name
        decodedName = name
        return name
    }

    /// `thread 3 ("worker")`, or `thread 3` for a thread without a name.
    static func describe(number: Int, name: String) -> String {
        name.isEmpty ? "thread \(number)" : "thread \(number) (\"\(name)\")"
    }

    /// `thread 3 ("worker")`, or `task 4`, for messages.
    var description: String {
        isTask ? "task \(number)" : Self.describe(number: number, name: name)
    }
}

/// A frame of some thread's resolver: the definition being built there.
struct FrameReference: Hashable {
    let thread: ResolverThread
    /// The resolver's ``Resolver/number``.
    let resolver: UInt64
    let frame: Int
    /// The frame's serial, which tells it from a later frame at the same index.
    let serial: UInt64

    static func == (left: FrameReference, right: FrameReference) -> Bool {
        left.resolver == right.resolver && left.serial == right.serial
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(resolver)
        hasher.combine(serial)
    }
}
