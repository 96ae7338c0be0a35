import Foundation
import Testing

@testable import Assemblies

/// A task's identity, as the library keeps it to tell the task that opened an async graph from the
/// tasks that inherit its task-locals.
@Suite("Task identity")
struct TaskIdentityTests {
    @Test func aTaskHasOneIdentityAndItsChildrenOthers() async {
        let identity = TaskIdentity.current
        #expect(identity != nil)
        #expect(TaskIdentity.current == identity, "the same task, read twice")
        let child = await Task { TaskIdentity.current }.value
        #expect(child != nil && child != identity)
        #expect(await Task.detached { TaskIdentity.current }.value != identity)
    }

    @Test func noTaskHasNoIdentity() {
        let identity = Guarded<TaskIdentity??>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            identity.withLock { $0 = .some(TaskIdentity.current) }
            done.signal()
        }
        done.wait()
        #expect(identity.withLock { $0 } == .some(nil))
    }

    /// A task's `ResolverThread` may outlive its task — a waiting task's warning timer keeps it —
    /// and be let go on another thread; once ended, it is no task's. (It holds nothing of the task:
    /// a kept `UnsafeCurrentTask` held a reference, whose last release, after the task had finished,
    /// crashed now and then.)
    @Test func anIdentityOutlivesItsTaskAndIsLetGoAnywhere() async {
        let records = await withTaskGroup(of: ResolverThread.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    let record = ResolverThread(task: TaskIdentity.current!)
                    #expect(record.isCurrentTask)
                    record.end()
                    return record
                }
            }
            var records: [ResolverThread] = []
            for await record in group { records.append(record) }
            return records
        }
        for record in records { #expect(!record.isCurrentTask) }
        let released = DispatchSemaphore(value: 0)
        let kept = Guarded(records)
        Thread.detachNewThread {
            kept.withLock { $0.removeAll() }
            released.signal()
        }
        released.wait()
    }
}
