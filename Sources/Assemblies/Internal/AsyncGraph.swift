/// The object graph of a top-level `await` read: one graph for the read's whole duration, across
/// every suspension point and whichever threads the task resumes on.
///
/// A synchronous graph lives in its thread's ``Resolver``, found through a thread-local. A task
/// moves between threads at each `await`, and other tasks run on those threads meanwhile, so an
/// async graph has a resolver of its own, which belongs to the task instead of a thread:
///
/// - ``TaskGraphs`` holds the graph for its task while it is open, so every `await` read of the
///   task finds it after any suspension, whichever thread the task is on.
/// - The graph's resolver does the work of a thread's resolver — frames, entries, hooks, singleton
///   slots — and its ``ResolverThread`` stands for the task (``ResolverThread/isTask``), so that
///   "built by this thread" means "built by this task".
/// - Its state is only ever touched by the owning task, which runs on one thread at a time; each
///   resumption happens after the suspension before it, so no lock is needed.
/// - Synchronous work on the graph — entering and leaving a definition, hooks — runs with the
///   graph's resolver installed as the thread's current one (``installed(_:)``). Nothing can
///   suspend while it is installed, so it never stays behind on a thread.
/// - A synchronous member read in an async body runs on the thread's own resolver, which has no
///   graph open (nothing synchronous runs across an `await`), so it is a top-level read. While a
///   family has an async graph open, in any task (``Family/openAsyncGraphs``), a top-level read of
///   it looks for the current task's graph (``Resolver/taskGraphToJoin(readingFrom:)``) and reads in
///   it with the graph's resolver installed. Reads inside a thread's graph and singletons already
///   cached pay nothing for it, on any thread; a synchronous read of another family in an async
///   body opens a graph of its own on the thread, as a read that crosses families does.
///
/// When a top-level read has returned and nothing else holds its graph or the graph's resolver,
/// the thread it ended on keeps the graph, without its family, and the next top-level `await` read
/// that opens a graph outside any other there reopens it for its own task (``recycle(_:)``,
/// ``Resolver/serve(_:)``): the keys a task's graph read stay in its table from one graph to the
/// next, as a thread's do, and such a graph allocates nothing — not the graph, nor its resolver,
/// nor, when nothing else holds it, its task's record. A graph whose read threw, a graph nested in
/// another family's, and the first graph on a thread are new.
///
/// Child tasks run concurrently with their parent, so they never join its graph: a graph answers
/// only to the task that opened it (``task``). A child task's reads are top-level reads of its own,
/// which share the family's singletons and nothing else.
@usableFromInline
final class AsyncGraph: @unchecked Sendable {
    // @unchecked: only the owning task touches the graph (see above); the thread that keeps it
    // between two tasks (see `recycle`) changes `family` and `task`, when nothing else holds it.

    /// The family the graph reads: nil only while the graph waits on its thread to be reopened, so
    /// that it keeps no family alive (see ``recycle(_:)``).
    @exclusivity(unchecked) private var openFamily: Family?
    /// The family the graph reads.
    var family: Family {
        guard let openFamily else { preconditionFailure("Assemblies: a graph was read while its thread kept it") }
        return openFamily
    }
    /// ``family``'s ``Family/id`` (0 while the thread keeps the graph): compared without taking a
    /// reference to the family.
    @exclusivity(unchecked) private var familyID: UInt64

    /// Whether the graph reads `family`.
    func reads(_ family: Family) -> Bool {
        familyID == family.id
    }
    /// The task that opened the graph, and reads in it.
    @exclusivity(unchecked) private(set) var task: TaskIdentity
    /// Never changes: a `var` only so that ``recycle(_:)`` can ask whether the graph holds the only
    /// reference to it.
    @exclusivity(unchecked) private(set) var resolver: Resolver
    /// ``resolver``, unretained: the graph holds it.
    var unretainedResolver: Unmanaged<Resolver> {
        Unmanaged.passUnretained(resolver)
    }

    /// The graph of another family that the task had open when it opened this one, if any.
    let outer: AsyncGraph?

    private init(family: Family, outer: AsyncGraph?, owner: TaskIdentity) {
        openFamily = family
        familyID = family.id
        task = owner
        self.outer = outer
        if let outer {
            resolver = Resolver(thread: outer.resolver.thread)
            resolver.outer = outer.resolver
        } else {
            resolver = Resolver(thread: ResolverThread(task: owner))
        }
    }

    /// A graph of `family` for `owner` outside any other: the one that last ended on this thread
    /// (see ``recycle(_:)``), or a new one.
    private static func outermost(of family: Family, for owner: TaskIdentity) -> AsyncGraph {
        guard let graph = Resolver.threadRecord.lastTaskGraph.take() else {
            return AsyncGraph(family: family, outer: nil, owner: owner)
        }
        graph.openFamily = family
        graph.familyID = family.id
        graph.task = owner
        graph.resolver.serve(owner)
        return graph
    }

    /// The innermost graph the current task opened, if any.
    static func ofCurrentTask() -> AsyncGraph? {
        guard let task = TaskIdentity.current else { return nil }
        return of(task)
    }

    /// The innermost graph `task` — the current one — opened, if any.
    static func of(_ task: TaskIdentity) -> AsyncGraph? {
        Resolver.withCurrent { TaskGraphs.graph(of: task, remembering: &$0.taskGraphMemo) }
    }

    /// The innermost graph of `family` the current task opened, if any: the current task's graph
    /// or one it is nested in.
    static func ofCurrentTask(of family: Family) -> AsyncGraph? {
        var graph = ofCurrentTask()
        while let open = graph, !open.reads(family) {
            graph = open.outer
        }
        return graph
    }

    /// Opens a graph of `family` for the current task, inside `outer` (the task's innermost graph,
    /// of another family, if any), overridden and observed as the family is for the task.
    static func open(_ family: Family, inside outer: AsyncGraph?) -> AsyncGraph {
        guard let task = TaskIdentity.current else {
            preconditionFailure("Assemblies: an async read outside a task")
        }
        let graph = opened(family, for: task, inside: outer)
        graph.installed { $0.beginGraph(asTheTaskSees: family) }
        return graph
    }

    /// Opens a graph of `family` for `task`, the current one, inside `outer` as ``open(_:inside:)``
    /// does, and decides the read of `key` that opens it, with the graph's resolver installed once
    /// for both.
    static func open(
        _ family: Family,
        for task: TaskIdentity,
        inside outer: AsyncGraph?,
        deciding key: DefinitionKey,
        scope: Scope
    ) -> (AsyncGraph, Step) {
        let graph = opened(family, for: task, inside: outer)
        let decision = graph.installed { resolver in
            resolver.beginGraph(asTheTaskSees: family)
            return resolver.decide(key, scope: scope, in: family, suspends: true)
        }
        return (graph, Step(decision))
    }

    /// A graph of `family` for `task`, counted open and found by the task's reads, but not begun on
    /// its resolver yet.
    private static func opened(_ family: Family, for task: TaskIdentity, inside outer: AsyncGraph?) -> AsyncGraph {
        let graph = outer.map { AsyncGraph(family: family, outer: $0, owner: task) } ?? outermost(of: family, for: task)
        family.openAsyncGraphs.increment()
        Resolver.withCurrent { TaskGraphs.enter(graph, of: task, remembering: &$0.taskGraphMemo) }
        return graph
    }

    /// Runs the `afterAllInjections` steps, ends `graph`, and leaves its resolver to the thread
    /// (see ``recycle(_:)``).
    static func finish(_ graph: inout AsyncGraph) {
        graph.end { $0.finishGraph() }
        recycle(&graph)
    }

    /// Leaves the frame `handle` names with `object` (see ``leave(_:returning:)``), then finishes
    /// `graph`, whose top-level read it is (see ``finish(_:)``), with the graph's resolver installed
    /// once for both.
    static func finish(
        _ graph: inout AsyncGraph,
        leaving handle: DefinitionHandle,
        returning object: Unmanaged<AnyObject>
    ) {
        graph.end { resolver in
            handle.resolver._withUnsafeGuaranteedRef { $0.leave(handle.frame, returning: object) }
            resolver.finishGraph()
        }
        recycle(&graph)
    }

    /// Ends a graph whose top-level read threw.
    func abandon() {
        end { $0.abandonGraph() }
    }

    /// Closes the graph on its resolver with `close`, takes it out of its task's entry, and ends the
    /// task's identity with its outermost graph. While `close` runs — hooks, `afterAllInjections`
    /// steps, deinits of what the graph releases — the graph's resolver is installed, so the task's
    /// synchronous reads there are made on it, never looked up in ``TaskGraphs``.
    private func end(closing close: (Resolver) -> Void) {
        installed(close)
        Resolver.withCurrent { TaskGraphs.leave(self, of: task, remembering: &$0.taskGraphMemo) }
        if outer == nil { resolver.thread.end() }
        family.openAsyncGraphs.decrement()
    }

    /// Once `graph` has finished: leaves it to the thread, whose next top-level async graph it is
    /// (see ``outermost(of:for:)``) — when it is outside any other, nothing but the caller holds it or
    /// its resolver, and the resolver is idle. Otherwise it goes when its last holder lets go, as any.
    /// The thread keeps it without its family: a family the user lets go of, and everything it keeps
    /// (its singletons, its configuration), goes now, not when the thread next opens a graph.
    private static func recycle(_ graph: inout AsyncGraph) {
        guard
            graph.outer == nil && isKnownUniquelyReferenced(&graph) && isKnownUniquelyReferenced(&graph.resolver)
                && graph.resolver.isIdle
        else { return }
        graph.openFamily = nil
        graph.familyID = 0
        Resolver.threadRecord.lastTaskGraph = graph
    }

    /// Runs `body` with the graph's resolver as this thread's current one, then puts back the
    /// thread's own. `body` can't suspend, so the graph never stays installed on a thread that runs
    /// another task. The task's reads check the stack of this thread meanwhile.
    func installed<Result>(_ body: (Resolver) -> Result) -> Result {
        // The graph holds its resolver for the call: no reference of its own.
        unretainedResolver._withUnsafeGuaranteedRef { resolver in
            resolver.runsOnStack(Resolver.withCurrent { $0.thread.currentStack })
            return resolver.installed { body(resolver) }
        }
    }

    /// What a read in the graph does next.
    @usableFromInline
    enum Step {
        /// Hand back this instance: nothing is built.
        case instance(AnyObject)
        /// Run the body in this frame, then leave it.
        case build(DefinitionHandle)
        /// Wait for a stored definition that another thread or task is building.
        case wait(Waiting)
        /// The task was cancelled while it waited: throw `CancellationError`.
        case cancelled

        /// What a read does next after its resolver decided `decision`.
        init(_ decision: Resolver.Decision) {
            switch decision {
            case .instance(let object): self = .instance(object)
            case .build(let handle): self = .build(handle)
            case .wait(let slot, let store): self = .wait(Waiting(slot: slot, store: store))
            }
        }
    }

    /// A slot that a read found being built elsewhere, and its store.
    @usableFromInline
    struct Waiting: Sendable {
        let slot: SingletonSlot
        let store: SingletonStore
    }

    /// Decides a read of `key` of `family` — the graph's — in this graph, with its resolver
    /// installed: never ``Step/cancelled``.
    func decide(_ key: DefinitionKey, scope: Scope, in family: Family) -> Step {
        decide(key, scope: scope, in: family, afterWaiting: false)
    }

    /// Decides with the resolver installed; `afterWaiting` when the task has waited since it last
    /// decided (threads may have taken instances from it meanwhile).
    private func decide(_ key: DefinitionKey, scope: Scope, in family: Family, afterWaiting: Bool) -> Step {
        let decision = installed { resolver in
            let decision = resolver.decide(key, scope: scope, in: family, suspends: true)
            if afterWaiting { resolver.takeInbox() }
            return decision
        }
        return Step(decision)
    }

    /// Waits for the slot a read of `key` found built elsewhere to change, and decides again, until
    /// the read has an instance or a frame to build one in — or, when `cancellable` (its error type
    /// admits `CancellationError`), until the task is cancelled: never ``Step/wait(_:)``.
    func decide(_ key: DefinitionKey, scope: Scope, afterWaitingFor waiting: Waiting, cancellable: Bool) async -> Step {
        var waiting = waiting
        var cancellable = cancellable
        let family = family
        while true {
            let chain = resolver.threadChain(to: key).map(StoredKey.init)
            let outcome = await waiting.store.wait(
                for: waiting.slot,
                by: resolver.thread,
                readingFrom: chain,
                cancellable: cancellable
            )
            switch outcome {
            case .changed:
                break
            case .cancelledWhilePinned:
                cancellable = false
            case .cancelled:
                let hasHandedOut = installed { resolver in
                    resolver.takeInbox()
                    return resolver.hasHandouts
                }
                // Throwing now would leave an instance that was handed out unfinished, which stops
                // the program (see `undo(_:)`): this reader waits for the singleton.
                guard hasHandedOut else { return .cancelled }
                cancellable = false
            case .cycle(let chain):
                Failure.asyncSingletonCycle(resolver.threadChain(to: key), held: chain)
            }
            let step = decide(key, scope: scope, in: family, afterWaiting: true)
            guard case .wait(let next) = step else { return step }
            waiting = next
        }
    }

    /// Records that the body of the frame `handle` names can throw.
    func bodyMayThrow(_ handle: DefinitionHandle) {
        handle.resolver._withUnsafeGuaranteedRef { $0.bodyMayThrow(at: handle.frame) }
    }

    /// Undoes the frame of a body that threw, and ends the graph when `abandoning` (the read that
    /// threw opened it).
    func bodyThrew(_ handle: DefinitionHandle, abandoning: Bool) {
        installed { _ in handle.resolver._withUnsafeGuaranteedRef { $0.bodyThrew(at: handle.frame) } }
        if abandoning { abandon() }
    }

    /// Leaves the frame `handle` names with `object`, the instance as the engine keeps it (see
    /// ``withStored(_:scope:_:)``).
    func leave(_ handle: DefinitionHandle, returning object: Unmanaged<AnyObject>) {
        installed { _ in handle.resolver._withUnsafeGuaranteedRef { $0.leave(handle.frame, returning: object) } }
    }

    /// The resolver numbered `number` among the graphs the current task has open (and the spares
    /// they opened), for a ``Definition`` used in an async body.
    static func resolver(numbered number: UInt64) -> Resolver? {
        ofCurrentTask()?.resolver.chain.first { $0.number == number }
    }
}
