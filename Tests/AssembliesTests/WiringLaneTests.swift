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
            Issue.record("a misuse after the check has its ending is printed")
            return
        }
    }

    @Test func theThreadRunsJobsInOrderThenEndsOnceClosedAndEmpty() {
        var queue = LaneQueue<Int>.open([])
        guard case .wait = queue.next() else {
            Issue.record("an open, empty queue: the thread waits")
            return
        }
        guard case .wake = queue.enqueue(1), case .wake = queue.enqueue(2) else {
            Issue.record("jobs wake the thread")
            return
        }
        guard case .run(1) = queue.next() else {
            Issue.record("in order")
            return
        }
        queue.close()
        guard case .wake = queue.enqueue(3) else {
            Issue.record("a closed queue still takes jobs until its thread ends")
            return
        }
        guard case .run(2) = queue.next(), case .run(3) = queue.next() else {
            Issue.record("what is left runs")
            return
        }
        guard case .end = queue.next() else {
            Issue.record("closed and empty: the thread ends")
            return
        }
        guard case .runElsewhere(4) = queue.enqueue(4) else {
            Issue.record("a job enqueued once the thread has ended runs elsewhere")
            return
        }
        queue.close()
        guard case .end = queue.next() else {
            Issue.record("closing an ended queue changes nothing")
            return
        }
    }
}
