/// The jobs a ``WiringLane``'s thread runs, as a state machine between the threads that enqueue
/// them and the lane's thread: open while the check's read may enqueue, closed once the check has
/// its ending (the thread runs what is left, then ends), ended once the thread has. Its events
/// return what the caller does; they run under the lane's lock, and the tests drive them without
/// threads.
enum LaneQueue<Job> {
    case open([Job])
    case closed([Job])
    /// The thread has ended: a job enqueued now runs elsewhere.
    case ended

    /// What the lane does with a job enqueued.
    enum Enqueued {
        /// Wake the lane's thread, which runs it.
        case wake
        /// Hand it to the global executor: the lane's thread has ended.
        case runElsewhere(Job)
    }

    mutating func enqueue(_ job: Job) -> Enqueued {
        switch self {
        case .open(var jobs):
            jobs.append(job)
            self = .open(jobs)
        case .closed(var jobs):
            jobs.append(job)
            self = .closed(jobs)
        case .ended:
            return .runElsewhere(job)
        }
        return .wake
    }

    /// What the lane's thread does next.
    enum Next {
        case run(Job)
        /// Sleep until a job is enqueued or the queue is closed.
        case wait
        /// End the thread.
        case end
    }

    /// The lane's thread asks for its next job.
    mutating func next() -> Next {
        switch self {
        case .open(var jobs):
            guard !jobs.isEmpty else { return .wait }
            let job = jobs.removeFirst()
            self = .open(jobs)
            return .run(job)
        case .closed(var jobs):
            guard !jobs.isEmpty else {
                self = .ended
                return .end
            }
            let job = jobs.removeFirst()
            self = .closed(jobs)
            return .run(job)
        case .ended:
            return .end
        }
    }

    /// The check has its ending: the thread runs what is left, then ends.
    mutating func close() {
        if case .open(let jobs) = self { self = .closed(jobs) }
    }
}
