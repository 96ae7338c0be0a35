internal import CAssemblies

/// Threads of its own on which a ``WiringCheck`` reads one root, or ``withMisuseThrown(_:)`` runs its
/// body: the task executor of the task that runs it, and so of its child tasks and of the default
/// actors they call. A misuse on one of those threads — or on the thread that builds its depth
/// guard's message (``StackLimit/stopOnAStackOfItsOwn(_:)``) — is handed to the caller
/// (``Failure/stop(_:file:line:)`` calls ``stop(_:)``) instead of stopping the program: the read
/// can't go on, so the thread parks for good, keeping what it holds. A check goes on with the next
/// root in a sandbox of its own, since the parked read may hold the sandbox's singletons being built.
///
/// A job runs on a thread that waits for one, or on a new thread, up to ``LaneQueue/threadLimit``
/// (see ``LaneQueue``): a read that blocks its thread — waiting for a singleton that another child
/// task builds across an `await` — never keeps that task from running. A misuse freezes the lane:
/// the body's other child tasks don't run again, and one that misuses too while running is printed
/// as a warning. Misuse on any other thread still stops the program: in a task the body starts with
/// `Task {}` or `Task.detached`, on an actor with an executor of its own (the main actor), on a
/// thread the body starts.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class WiringLane: TaskExecutor, @unchecked Sendable {
    // @unchecked: `read` and `queue` are only touched under `lock`.
    private let lock = Lock()
    private let jobEnqueued = Condition()
    private var read = LaneRead<CheckedContinuation<LaneReadEnding, Never>>.running(waiter: nil)
    private var queue = LaneQueue<UnownedJob>.empty

    private init() {}

    /// Runs `body` in a task on a new lane, at the calling task's priority, and returns how it
    /// ended; cancelling the calling task cancels it.
    static func run(_ body: @escaping @Sendable () async throws -> Void) async -> LaneReadEnding {
        let lane = WiringLane()
        let task = Locked<Task<Void, Never>?>(nil)
        let ending = await withTaskCancellationHandler {
            await withCheckedContinuation { (caller: CheckedContinuation<LaneReadEnding, Never>) in
                if let ending = lane.lock.withLock({ lane.read.wait(caller) }) {
                    return caller.resume(returning: ending)
                }
                let started = Task(executorPreference: lane, priority: Task.currentPriority) {
                    let ending: LaneReadEnding
                    do {
                        try await body()
                        ending = .returned
                    } catch {
                        ending = .threw(error)
                    }
                    lane.end(ending)
                }
                task.withLock { $0 = started }
                if Task.isCancelled { started.cancel() }  // cancelled before the task was kept
            }
        } onCancel: {
            task.withLock { $0 }?.cancel()
        }
        // The threads still waiting for a job end; a parked one stays parked.
        if lane.lock.withLock({ lane.queue.close() }) { lane.jobEnqueued.broadcast() }
        return ending
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        switch lock.withLock({ queue.enqueue(job) }) {
        case .wake:
            jobEnqueued.broadcast()
        case .queued:
            break
        case .startThread(let job):
            guard let thread = OwnThread.start(stackSize: 8 << 20, { self.runJobs(from: job) }) else {
                lock.withLock { queue.threadFailedToStart() }
                return globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
            thread.detach()
        case .runElsewhere(let job):
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// A lane's thread: runs `first`, then the jobs it is given, until the lane is closed and has
    /// nothing for it. The thread keeps the lane for as long as it runs, parked included.
    private func runJobs(from first: UnownedJob) {
        assemblies_set_lane(Unmanaged.passUnretained(self).toOpaque())
        defer { assemblies_set_lane(nil) }
        var job = first
        while true {
            job.runSynchronously(on: asUnownedTaskExecutor())
            lock.lock()
            var next = queue.next()
            while case .wait = next {
                jobEnqueued.wait(releasing: lock)
                queue.stoppedWaiting()
                next = queue.next()
            }
            lock.unlock()
            guard case .run(let following) = next else { return }
            job = following
        }
    }

    /// The body has ended: tells the caller how.
    private func end(_ ending: LaneReadEnding) {
        switch lock.withLock({ read.end(ending) }) {
        case .resume(let caller, let ending): caller.resume(returning: ending)
        case .none: break
        case .print:
            // Another child task of a body that stopped: the caller has its ending already.
            if case .misused(let message) = ending {
                WarningOutput.write("a read on a lane that had already stopped stopped too: \(message)")
            }
        }
    }

    /// Reports a misuse on one of this lane's threads to the caller, freezes the lane's other work,
    /// then parks the thread for good.
    func stop(_ message: String) -> Never {
        if lock.withLock({ queue.freeze() }) { jobEnqueued.broadcast() }
        end(.misused(message: message))
        let parker = Parker()  // which nothing wakes
        while true {
            parker.sleep(seconds: nil)
        }
    }
}
