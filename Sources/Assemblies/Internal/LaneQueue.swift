/// The jobs a ``WiringLane`` runs, and its threads, as a state machine between the threads that
/// enqueue jobs and the lane's own threads. A job goes to a thread that waits for one, or to a new
/// thread when none waits — so that a job never waits behind one that blocks its thread (a read
/// waiting for a singleton another job of the lane builds): the lane has as many threads as jobs
/// run at once. Once the lane is closed, a thread with nothing to run ends, and once every thread
/// has ended, a job enqueued runs elsewhere. Its events return what the caller does; they run under
/// the lane's lock, and the tests drive them without threads.
enum LaneQueue<Job> {
    case running(Running)
    /// Closed, and every thread has ended.
    case ended

    struct Running {
        /// Jobs that waiting threads will run, oldest first.
        var jobs: [Job] = []
        /// The lane's threads, running a job or waiting for one — those parked by a misuse included.
        var threads = 0
        /// How many of them wait for a job.
        var waiting = 0
        var isClosed = false
    }

    /// A lane with no thread yet.
    static var empty: LaneQueue { .running(Running()) }

    /// What the lane does with a job enqueued.
    enum Enqueued {
        /// Wake the waiting threads: one of them runs it.
        case wake
        /// Start a thread that runs this job first.
        case startThread(Job)
        /// Hand it to the global executor: the lane has ended.
        case runElsewhere(Job)
    }

    mutating func enqueue(_ job: Job) -> Enqueued {
        guard case .running(var running) = self else { return .runElsewhere(job) }
        if running.waiting > running.jobs.count {
            running.jobs.append(job)
            self = .running(running)
            return .wake
        }
        running.threads += 1
        self = .running(running)
        return .startThread(job)
    }

    /// A thread started for a job couldn't be made: the caller runs the job elsewhere.
    mutating func threadFailedToStart() {
        guard case .running(var running) = self else { return }
        running.threads -= 1
        self = .running(running)
    }

    /// What a lane's thread does next.
    enum Next {
        case run(Job)
        /// Wait until woken, then call ``stoppedWaiting()`` and ask again.
        case wait
        /// End the thread.
        case end
    }

    /// A lane's thread, done with its job, asks for the next.
    mutating func next() -> Next {
        guard case .running(var running) = self else { return .end }
        if !running.jobs.isEmpty {
            let job = running.jobs.removeFirst()
            self = .running(running)
            return .run(job)
        }
        guard running.isClosed else {
            running.waiting += 1
            self = .running(running)
            return .wait
        }
        running.threads -= 1
        self = running.threads == 0 ? .ended : .running(running)
        return .end
    }

    /// A thread told to wait has woken up.
    mutating func stoppedWaiting() {
        guard case .running(var running) = self else { return }
        running.waiting -= 1
        self = .running(running)
    }

    /// No job is expected any more: each thread ends once it has nothing to run. Returns whether
    /// threads wait, to be woken so that they end.
    mutating func close() -> Bool {
        guard case .running(var running) = self else { return false }
        running.isClosed = true
        self = running.threads == 0 && running.jobs.isEmpty ? .ended : .running(running)
        return running.waiting > 0
    }
}
