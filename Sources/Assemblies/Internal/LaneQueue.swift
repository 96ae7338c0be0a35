/// The jobs a ``WiringLane`` runs, and its threads, as a state machine between the threads that
/// enqueue jobs and the lane's own threads. A job goes to a thread that waits for one, or to a new
/// thread when none waits — so that a job never waits behind one that blocks its thread (a read
/// waiting for a singleton another job of the lane builds) — up to ``threadLimit`` threads, after
/// which it waits for one. Once the lane is closed, a thread with nothing to run ends, and once
/// every thread has ended, a job enqueued runs elsewhere. Once a misuse has frozen it, nothing runs
/// again. Its events return what the caller does; they run under the lane's lock, and the tests
/// drive them without threads.
enum LaneQueue<Job> {
    case running(Running)
    /// Closed, and every thread has ended.
    case ended
    /// A misuse stopped the lane's work: no job runs again, and the tasks they belong to stay
    /// suspended for good (`jobs` keeps them).
    case frozen(jobs: [Job])

    /// The most threads a lane starts: beyond, a job waits for one of them.
    static var threadLimit: Int { 64 }

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
        /// Nothing: a thread of the lane runs it once it is done with its job — or, frozen, never.
        case queued
    }

    mutating func enqueue(_ job: Job) -> Enqueued {
        switch self {
        case .ended:
            return .runElsewhere(job)
        case .frozen(var jobs):
            jobs.append(job)
            self = .frozen(jobs: jobs)
            return .queued
        case .running(var running):
            if running.waiting > running.jobs.count {
                running.jobs.append(job)
                self = .running(running)
                return .wake
            }
            guard running.threads < Self.threadLimit else {
                running.jobs.append(job)
                self = .running(running)
                return .queued
            }
            running.threads += 1
            self = .running(running)
            return .startThread(job)
        }
    }

    /// A thread started for a job couldn't be made: the caller runs the job elsewhere.
    mutating func threadFailedToStart() {
        guard case .running(var running) = self else { return }
        running.threads -= 1
        self = running.isClosed && running.threads == 0 && running.jobs.isEmpty ? .ended : .running(running)
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
        guard case .running(var running) = self else { return .end }  // ended, or frozen
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

    /// A misuse has stopped the lane's work: every thread ends once done with its job, and no job
    /// queued or enqueued runs. Returns whether threads wait, to be woken so that they end.
    mutating func freeze() -> Bool {
        guard case .running(let running) = self else { return false }
        self = .frozen(jobs: running.jobs)
        return running.waiting > 0
    }
}
