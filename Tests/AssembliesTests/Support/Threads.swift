import Assemblies
import Foundation

/// Runs `body` on `count` new threads that start together, and waits for all of them. The threads
/// write warnings where the caller does (see `CapturedWarnings`).
func onThreads(_ count: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    let warnings = WarningOutput.handler
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            start.wait()
            withWarningHandler(warnings) { body(index) }
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}

/// Runs `body` on a new thread and waits at most `seconds` for it to return: false when it didn't,
/// so that a deadlock fails the test instead of hanging the run. (A thread that never returns is
/// left behind.) The thread writes warnings where the caller does (see `CapturedWarnings`).
func finishes(within seconds: Double = 20, stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let warnings = WarningOutput.handler
    let thread = Thread {
        withWarningHandler(warnings, body)
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}
