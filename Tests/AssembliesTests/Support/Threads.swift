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
