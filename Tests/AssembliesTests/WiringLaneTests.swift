import Testing

@testable import Assemblies

private struct LaneError: Error {}

/// The two state machines of a wiring check's lane, driven by hand, without threads: how a root's
/// read ends (`LaneRead`), and the jobs its thread runs (`LaneQueue`).
@Suite("Wiring check lane state machines")
struct WiringLaneTests {
    @Test func theCheckIsResumedOnceWithTheFirstEnding() {
        var read = LaneRead<Int>.running(waiter: nil)
        #expect(read.wait(1) == nil, "the read runs: the check waits")
        guard case .resume(1, .misused(let message)) = read.end(.misused(message: "stopped")) else {
            Issue.record("the waiting check is resumed with the misuse")
            return
        }
        #expect(message == "stopped")
        guard case .print = read.end(.returned) else {
            Issue.record("a later ending has no one to go to")
            return
        }
    }

    @Test func anEndingBeforeTheCheckWaitsIsKeptForIt() {
        var read = LaneRead<Int>.running(waiter: nil)
        guard case .none = read.end(.threw(LaneError())) else {
            Issue.record("nobody to resume yet")
            return
        }
        guard case .threw(let error)? = read.wait(1) else {
            Issue.record("the check finds the ending without waiting")
            return
        }
        #expect(error is LaneError)
        guard case .print = read.end(.misused(message: "late")) else {
            Issue.record("a misuse after the caller has its ending is printed")
            return
        }
    }

    @Test func aJobGoesToAWaitingThreadOrToANewOne() {
        var queue = LaneQueue<Int>.empty
        guard case .startThread(1) = queue.enqueue(1) else {
            Issue.record("no thread yet: one is started for the job")
            return
        }
        guard case .startThread(2) = queue.enqueue(2) else {
            Issue.record("the first thread is busy (it may block): another one is started")
            return
        }
        guard case .wait = queue.next() else {
            Issue.record("a thread done with its job, and nothing queued: it waits")
            return
        }
        guard case .wake = queue.enqueue(3) else {
            Issue.record("a thread waits: it is woken for the job")
            return
        }
        guard case .startThread(4) = queue.enqueue(4) else {
            Issue.record("the one waiting thread is spoken for: a new one is started")
            return
        }
        queue.stoppedWaiting()
        guard case .run(3) = queue.next() else {
            Issue.record("the woken thread runs the queued job")
            return
        }
    }

    @Test func onceClosedEachThreadEndsWhenIdleAndTheLaneEndsWithTheLast() {
        var queue = LaneQueue<Int>.empty
        _ = queue.enqueue(1)  // thread A
        _ = queue.enqueue(2)  // thread B
        guard case .wait = queue.next() else {
            Issue.record("A waits")
            return
        }
        let wakes = queue.close()
        #expect(wakes, "A waits: it is woken to end")
        queue.stoppedWaiting()
        guard case .end = queue.next() else {
            Issue.record("A, woken, ends")
            return
        }
        guard case .startThread(3) = queue.enqueue(3) else {
            Issue.record("closed but not ended, B busy: a job still gets a thread of the lane")
            return
        }
        guard case .end = queue.next(), case .end = queue.next() else {
            Issue.record("B and the thread of job 3 end")
            return
        }
        guard case .runElsewhere(4) = queue.enqueue(4) else {
            Issue.record("every thread has ended: a job runs elsewhere")
            return
        }
    }

    @Test func aFrozenLaneRunsNothingMore() {
        var queue = LaneQueue<Int>.empty
        _ = queue.enqueue(1)  // thread A, which will misuse
        _ = queue.enqueue(2)  // thread B
        guard case .wait = queue.next() else {
            Issue.record("B waits")
            return
        }
        guard case .wake = queue.enqueue(3) else {
            Issue.record("B is woken for job 3")
            return
        }
        let wakes = queue.freeze()
        #expect(wakes, "B waits: it is woken to end")
        queue.stoppedWaiting()
        guard case .end = queue.next() else {
            Issue.record("B ends without running job 3")
            return
        }
        guard case .queued = queue.enqueue(4) else {
            Issue.record("a job of a frozen lane is kept, never run")
            return
        }
        let closingWakes = queue.close()
        #expect(!closingWakes, "closing a frozen lane changes nothing")
    }

    @Test func beyondTheLimitAJobWaitsForAThread() {
        var queue = LaneQueue<Int>.empty
        for job in 0..<LaneQueue<Int>.threadLimit {
            guard case .startThread = queue.enqueue(job) else {
                Issue.record("below the limit, each job gets a thread")
                return
            }
        }
        guard case .queued = queue.enqueue(-1) else {
            Issue.record("at the limit, the job waits")
            return
        }
        guard case .run(-1) = queue.next() else {
            Issue.record("the first thread done with its job runs it")
            return
        }
    }

    @Test func aThreadThatCantStartIsNotCounted() {
        var queue = LaneQueue<Int>.empty
        _ = queue.enqueue(1)
        queue.threadFailedToStart()
        let wakes = queue.close()
        #expect(!wakes)
        guard case .runElsewhere(2) = queue.enqueue(2) else {
            Issue.record("closed with no thread: ended")
            return
        }
    }
}
