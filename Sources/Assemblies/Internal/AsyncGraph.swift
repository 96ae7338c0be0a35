/// The object graph of a top-level `await` read: one graph for the read's whole duration, across
/// every suspension point and whichever threads the task resumes on.
///
/// A synchronous graph lives in its thread's ``Resolver``, found through a thread-local. A task
/// moves between threads at each `await`, and other tasks run on those threads meanwhile, so an
/// async graph has a resolver of its own, which belongs to the task instead of a thread:
///
/// - The graph is carried in the task-local ``current``, so every `await` read of the task finds it
///   after any suspension.
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
/// Child tasks inherit task-locals, but they run concurrently with their parent, so they never join
/// its graph: a graph answers only to the task that opened it (its resolver's
/// ``ResolverThread/task``). A child task's reads are
/// top-level reads of its own, which share the family's singletons and nothing else.
@usableFromInline
final class AsyncGraph: @unchecked Sendable {
    // @unchecked: `resolver` is only touched by the owning task (see above); the rest never changes.

    /// The innermost graph that the current task, or the task it inherited its locals from, opened.
    @TaskLocal static var current: AsyncGraph?

    let family: Family
    @usableFromInline let resolver: Resolver
    /// The graph of another family that the task had open when it opened this one, if any.
    let outer: AsyncGraph?

    private init(family: Family, outer: AsyncGraph?, owner: TaskIdentity) {
        self.family = family
        self.outer = outer
        resolver = Resolver(thread: outer?.resolver.thread ?? ResolverThread(task: owner))
        resolver.outer = outer?.resolver
    }

    /// The innermost graph the current task opened, if any.
    @usableFromInline
    static func ofCurrentTask() -> AsyncGraph? {
        guard let graph = current else { return nil }
        return graph.resolver.thread.isCurrentTask ? graph : nil
    }

    /// Opens a graph of `family` for the current task, which keeps singletons in `store` and is
    /// overridden by `context`; nil outside a task.
    static func open(
        _ family: Family,
        keepingSingletonsIn store: SingletonStore,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?
    ) -> AsyncGraph {
        guard let task = TaskIdentity.current else {
            preconditionFailure("Assemblies: an async read outside a task")
        }
        let graph = AsyncGraph(family: family, outer: ofCurrentTask(), owner: task)
        graph.installed { resolver in
            resolver.beginGraph(of: family, keepingSingletonsIn: store, overriddenBy: context, observedBy: observation)
        }
        family.openAsyncGraphs.increment()
        return graph
    }

    /// Runs the `afterAllInjections` steps, then ends the graph.
    func finish() {
        installed { $0.finishGraph() }
        if outer == nil { resolver.thread.end() }
        family.openAsyncGraphs.decrement()
    }

    /// Ends a graph whose top-level read threw.
    func abandon() {
        installed { $0.abandonGraph() }
        if outer == nil { resolver.thread.end() }
        family.openAsyncGraphs.decrement()
    }

    /// Runs `body` with the graph's resolver as this thread's current one, then puts back the
    /// thread's own. `body` can't suspend, so the graph never stays installed on a thread that runs
    /// another task. The task's reads check the stack of this thread meanwhile.
    func installed<Result, E: Error>(_ body: (Resolver) throws(E) -> Result) throws(E) -> Result {
        resolver.thread.hostStack = Resolver.withCurrent { $0.thread.currentStack }
        return try resolver.installed { () throws(E) in try body(resolver) }
    }

    /// The resolver numbered `number` among the graphs the current task has open (and the spares
    /// they opened), for a ``Definition`` used in an async body.
    static func resolver(numbered number: UInt64) -> Resolver? {
        ofCurrentTask()?.resolver.chain.first { $0.number == number }
    }
}
