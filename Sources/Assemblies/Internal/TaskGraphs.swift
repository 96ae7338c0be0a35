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
/// one short critical section in one of ``shardCount`` shards, picked by the task's address.
enum TaskGraphs {
    /// Tasks whose addresses fall in one shard, with the graph each has open.
    private final class Shard: @unchecked Sendable {
        // @unchecked: `entries` is only touched while `lock` is held.
        let lock = Lock()
        @exclusivity(unchecked) var entries: [(task: TaskIdentity, graph: AsyncGraph)] = []
    }

    static let shardCount = 64
    private static let shards = (0..<shardCount).map { _ in Shard() }

    private static func shard(of task: TaskIdentity) -> Shard {
        shards[task.hashBits & (shardCount - 1)]
    }

    /// The graph `task` has open, if any.
    static func graph(of task: TaskIdentity) -> AsyncGraph? {
        let shard = shard(of: task)
        shard.lock.lock()
        defer { shard.lock.unlock() }
        for entry in shard.entries where entry.task == task {
            return entry.graph
        }
        return nil
    }

    /// Makes `graph` the one `task` has open, in place of its ``AsyncGraph/outer``, if any.
    static func enter(_ graph: AsyncGraph, of task: TaskIdentity) {
        let shard = shard(of: task)
        shard.lock.withLock {
            if let index = shard.entries.firstIndex(where: { $0.task == task }) {
                shard.entries[index].graph = graph
            } else {
                shard.entries.append((task, graph))
            }
        }
    }

    /// Puts back the graph `task` had open before `graph`, its ``AsyncGraph/outer`` (or none).
    static func leave(_ graph: AsyncGraph, of task: TaskIdentity) {
        let shard = shard(of: task)
        // The entry's graph is released after the lock: `graph` is still held by the caller, so
        // nothing is deallocated here, but the rule is kept (see ``Lock``).
        let removed: AsyncGraph? = shard.lock.withLock {
            guard let index = shard.entries.firstIndex(where: { $0.task == task }) else { return nil }
            let entered = shard.entries[index].graph
            precondition(entered === graph, "Assemblies: an async graph ended while another was open above it")
            if let outer = graph.outer {
                shard.entries[index].graph = outer
            } else {
                shard.entries.remove(at: index)
            }
            return entered
        }
        withExtendedLifetime(removed) {}
    }
}
