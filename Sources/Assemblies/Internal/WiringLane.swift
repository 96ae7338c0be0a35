internal import CAssemblies

/// A thread of its own on which a ``WiringCheck`` reads one root, or ``withMisuseThrown(_:)`` runs
/// its body: the task executor of the task that runs it, and so of its child tasks. A misuse on that
/// thread — or on the thread that builds its depth guard's message
/// (``StackLimit/stopOnAStackOfItsOwn(_:)``) — is handed to the caller
/// (``Failure/stop(_:file:line:)`` calls ``stop(_:)``) instead of stopping the program: the read
/// can't go on, so the thread parks for good, keeping what it holds. A check goes on with the next
/// root in a sandbox of its own, since the parked read may hold the sandbox's singletons being built.
///
/// Only misuse on the lane's threads is reported: a read that hops to an actor, a task it starts
/// with `Task {}` or `Task.detached`, a thread it starts — their misuse still stops the program.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class WiringLane: TaskExecutor, @unchecked Sendable {
    // @unchecked: `read` and `queue` are only touched under `lock`.
    private let lock = Lock()
    private let jobEnqueued = Condition()
    private var read = LaneRead<CheckedContinuation<LaneReadEnding, Never>>.running(waiter: nil)
    private var queue = LaneQueue<UnownedJob>.open([])

    private init() {}

    /// Runs `body` in a task on a new lane, and returns how it ended; nil, having run nothing, when
    /// no thread can be made.
    static func run(_ body: @escaping @Sendable () async throws -> Void) async -> LaneReadEnding? {
        let lane = WiringLane()
        guard
            let thread = OwnThread.start(
                stackSize: 8 << 20,
                {
                    // The thread keeps the lane for as long as it runs, parked included.
                    assemblies_set_lane(Unmanaged.passUnretained(lane).toOpaque())
                    lane.runJobs()
                    assemblies_set_lane(nil)
                }
            )
        else { return nil }
        thread.detach()
        let ending = await withCheckedContinuation { (check: CheckedContinuation<LaneReadEnding, Never>) in
            if let ending = lane.lock.withLock({ lane.read.wait(check) }) {
                return check.resume(returning: ending)
            }
            Task(executorPreference: lane) {
                let ending: LaneReadEnding
                do {
                    try await body()
                    ending = .returned
                } catch {
                    ending = .threw(error)
                }
                lane.end(ending)
            }
        }
        if case .misused = ending { return ending }  // the thread is parked
        lane.lock.withLock { lane.queue.close() }
        lane.jobEnqueued.broadcast()
        return ending
    }

    /// Runs the jobs enqueued, one at a time, until the queue is closed and empty.
    private func runJobs() {
        while true {
            lock.lock()
            var next = queue.next()
            while case .wait = next {
                jobEnqueued.wait(releasing: lock)
                next = queue.next()
            }
            lock.unlock()
            guard case .run(let job) = next else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        switch lock.withLock({ queue.enqueue(job) }) {
        case .wake: jobEnqueued.broadcast()
        case .runElsewhere(let job): globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// The read has ended: tells the check how.
    private func end(_ ending: LaneReadEnding) {
        switch lock.withLock({ read.end(ending) }) {
        case .resume(let check, let ending): check.resume(returning: ending)
        case .none: break
        case .print:
            if case .misused(let message) = ending {
                WarningOutput.write("after its wiring check returned, a read stopped: \(message)")
            }
        }
    }

    /// Reports a misuse on this lane's thread to the check, then parks the thread for good.
    func stop(_ message: String) -> Never {
        end(.misused(message: message))
        let parking = Lock()
        let never = Condition()
        parking.lock()
        while true {
            never.wait(releasing: parking)
        }
    }
}
