import Foundation

/// Runs `body` on `count` new threads that start together, and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            start.wait()
            body(index)
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
/// left behind.)
func finishes(within seconds: Double = 20, stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}
