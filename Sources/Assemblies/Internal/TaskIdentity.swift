public import CAssemblies

/// A running task's identity, as a number: compared, never followed, holding nothing.
///
/// The library keeps one to find the async graph a task has open (``TaskGraphs``), and where it must
/// tell the task that opened a graph or a recording from other tasks — a recording's from the tasks
/// that inherit its task-locals (``ResolverThread/task``, ``Observation``). An
/// `UnsafeCurrentTask` kept past `withUnsafeCurrentTask` would hold a reference to the task: whoever
/// let go of it last, after the task had finished, would free the task outside the concurrency
/// runtime and crash. The address of the task, as a number, holds nothing; it is compared only
/// while the task it was taken from runs (see ``ResolverThread/end()``), so no other task can have
/// that address meanwhile.
@usableFromInline
struct TaskIdentity: Hashable, Sendable {
    private let address: UInt

    /// Whether a task is running now: one call into the concurrency runtime
    /// (`assemblies_running_task`, inlined), ~20 instructions where `withUnsafeCurrentTask` —
    /// generic, and not specialized across modules — costs ~300.
    @inlinable
    @inline(__always)
    static var isRunning: Bool {
        assemblies_running_task() != 0
    }

    /// Bits of the task's address that differ from task to task, to spread tasks over buckets.
    var hashBits: Int {
        Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10))
    }

    /// The identity of the task running now; nil outside a task.
    static var current: TaskIdentity? {
        let address = assemblies_running_task()
        return address == 0 ? nil : TaskIdentity(address: address)
    }
}
