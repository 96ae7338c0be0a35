/// The async graph each running task has open, found by the task's identity: where an `await` read,
/// or a synchronous read made in an async body, finds the graph it belongs to.
///
/// A graph is entered when its top-level `await` read opens it and removed when that read has
/// returned or thrown, before the task can end, so an entry never outlives its task and no other
/// task can have its identity meanwhile. A task that opens a graph of another family inside one
/// replaces its entry with the new graph, whose ``AsyncGraph/outer`` is the one it put back.
/// Child tasks have identities of their own: they never find their parent's graph, and their reads
/// are top-level reads of their own, as ``AsyncGraph`` says.
///
/// Why not a task-local: binding one takes a closure around the read (`withValue`), which an async
/// getter would specialize and carry, and each lookup walks the task's bindings. Here a lookup is
/// one short critical section in one of ``shardCount`` shards, picked by the task's address, which
/// scans the shard's entries: as many as tasks with a graph open hash to it.
///
/// Most lookups take no lock: the resolver that looks up remembers its last answer (``Memo``),
/// which holds for as long as the shard's epoch hasn't moved — each `enter` and `leave` moves it,
/// under the lock. A task's entry only changes by its own `enter` and `leave`, which happen before
/// anything the task runs later, on whichever thread; so while the epoch a read sees is the one the
/// memo kept, the task's entry is the one the memo saw, and the graph in it alive.
enum TaskGraphs {
    /// Tasks whose addresses fall in one shard, with the graph each has open.
    private final class Shard: @unchecked Sendable {
        // @unchecked: `entries` is only touched while `lock` is held; `epoch` is atomic.
        let lock = ShortLock()
        @exclusivity(unchecked) var entries: [(task: TaskIdentity, graph: AsyncGraph)] = []
        /// Moved by every change of `entries`, under `lock`; read without it (see ``Memo``).
        let epoch = AtomicCount()

        /// Where `task`'s entry is; call with `lock` held.
        func index(of task: TaskIdentity) -> Int? {
            var index = 0
            while index < entries.count {
                if entries[index].task == task { return index }
                index += 1
            }
            return nil
        }
    }

    /// Enough that thousands of tasks with graphs open at once — a server's requests waiting on I/O
    /// — leave a few dozen entries to a shard, and that tasks on different cores seldom meet in one.
    static let shardCount = 256
    private static let shards = (0..<shardCount).map { _ in Shard() }

    /// Calls `body` with the shard of `task`, which the process keeps: not retained.
    private static func withShard<Result>(of task: TaskIdentity, _ body: (Shard) -> Result) -> Result {
        shards.withUnsafeBufferPointer { shards in
            Unmanaged.passUnretained(shards[task.hashBits & (shardCount - 1)])._withUnsafeGuaranteedRef(body)
        }
    }

    /// A resolver's last lookup: the task, the graph it had open — unretained: the shard's entry
    /// holds it for as long as the shard's epoch stays `epoch` — and that epoch.
    struct Memo {
        fileprivate var task: TaskIdentity?
        fileprivate var graph: Unmanaged<AsyncGraph>?
        /// The task's shard's epoch counter (which lives as long as the process), and its value then.
        fileprivate var counter: AtomicCount?
        fileprivate var epoch = -1

        /// Whether the memo still answers for `task`.
        @inline(__always)
        fileprivate func holds(for task: TaskIdentity) -> Bool {
            self.task == task && counter?.value == epoch
        }
    }

    /// The graph `task` has open, if any; `memo` is the looking resolver's (see ``Memo``).
    static func graph(of task: TaskIdentity, remembering memo: inout Memo) -> AsyncGraph? {
        unretainedGraph(of: task, remembering: &memo)?.takeUnretainedValue()
    }

    /// ``graph(of:remembering:)``, unretained: for `task` itself, which holds its graph until it
    /// leaves it, so that the graph lives for as long as what the task does meanwhile.
    @inline(__always)
    static func unretainedGraph(of task: TaskIdentity, remembering memo: inout Memo) -> Unmanaged<AsyncGraph>? {
        memo.holds(for: task) ? memo.graph : lookUp(task, remembering: &memo)
    }

    /// ``unretainedGraph(of:remembering:)`` when the memo doesn't hold: looked up in the task's
    /// shard, under its lock, and remembered.
    @inline(never)
    private static func lookUp(_ task: TaskIdentity, remembering memo: inout Memo) -> Unmanaged<AsyncGraph>? {
        withShard(of: task) { shard in
            shard.lock.withLock {
                let graph = shard.index(of: task).map { Unmanaged.passUnretained(shard.entries[$0].graph) }
                memo = Memo(task: task, graph: graph, counter: shard.epoch, epoch: shard.epoch.value)
                return graph
            }
        }
    }

    /// Moves the epoch of `shard`, whose lock is held, after `task`'s entry changed to `graph`; the
    /// memo of the change.
    private static func moved(_ shard: Shard, _ task: TaskIdentity, to graph: AsyncGraph?) -> Memo {
        shard.epoch.increment()
        return Memo(
            task: task,
            graph: graph.map(Unmanaged.passUnretained),
            counter: shard.epoch,
            epoch: shard.epoch.value
        )
    }

    /// Makes `graph` the one `task` has open, in place of its ``AsyncGraph/outer``, if any; `memo`,
    /// the current resolver's, remembers it.
    static func enter(_ graph: AsyncGraph, of task: TaskIdentity, remembering memo: inout Memo) {
        withShard(of: task) { shard in
            shard.lock.withLock {
                if let index = shard.index(of: task) {
                    precondition(
                        shard.entries[index].graph === graph.outer,
                        "Assemblies: a task's async graphs are out of step"
                    )
                    shard.entries[index].graph = graph
                } else {
                    precondition(graph.outer == nil, "Assemblies: a task's async graphs are out of step")
                    shard.entries.append((task, graph))
                }
                memo = moved(shard, task, to: graph)
            }
        }
    }

    /// Puts back the graph `task` had open before `graph`, its ``AsyncGraph/outer`` (or none);
    /// `memo`, the current resolver's, remembers it.
    static func leave(_ graph: AsyncGraph, of task: TaskIdentity, remembering memo: inout Memo) {
        withShard(of: task) { shard in
            shard.lock.withLock {
                guard let index = shard.index(of: task), shard.entries[index].graph === graph else {
                    preconditionFailure("Assemblies: an async graph ended that was not its task's innermost")
                }
                if let outer = graph.outer {
                    shard.entries[index].graph = outer
                } else {
                    shard.entries.swapAt(index, shard.entries.count - 1)
                    shard.entries.removeLast()
                }
                memo = moved(shard, task, to: graph.outer)
            }
        }
        // Nothing is released under the lock: the caller still holds `graph`, and `outer` is held
        // by `graph` (see ``ShortLock``).
    }
}
