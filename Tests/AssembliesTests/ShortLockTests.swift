import Foundation
import Testing

@testable import Assemblies

/// What ``ShortLock`` holds: a count only touched under the lock.
private final class LockedCount: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    let lock = ShortLock()
    var value = 0
}

/// The lock of short critical sections (``ShortLock``, a word taken with a compare-and-swap, waited
/// for with the system's wait on an address): what it excludes, and that a thread waiting for it
/// is woken. Thread Sanitizer checks that what one holder wrote, the next one reads.
@Suite struct ShortLockTests {
    @Test func threadsThatContendForItEachAddWhatTheyAdd() {
        let count = LockedCount()
        let threads = 4
        let rounds = 20_000
        #expect(
            finishes {
                onThreads(threads) { _ in
                    for _ in 0..<rounds {
                        count.lock.withLock { count.value += 1 }
                    }
                }
            }
        )
        #expect(count.lock.withLock { count.value } == threads * rounds)
    }

    @Test func aThreadThatWaitsForItIsWokenWhenItIsLetGo() {
        let count = LockedCount()
        let holding = DispatchSemaphore(value: 0)
        let waited = DispatchSemaphore(value: 0)
        count.lock.lock()
        let thread = Thread {
            holding.signal()
            // Blocks until the test lets go, past the compare-and-swap: it sleeps on the word.
            count.lock.withLock { count.value += 1 }
            waited.signal()
        }
        thread.start()
        #expect(holding.wait(timeout: .now() + 20) == .success)
        #if os(Linux)
        // Until the other thread has found the lock held and sleeps on it (Apple's lock doesn't
        // say: there the thread may not have got that far).
        let deadline = Date(timeIntervalSinceNow: 20)
        while !count.lock.isAwaited && Date() < deadline { sched_yield() }
        let isAwaited = count.lock.isAwaited
        #expect(isAwaited, "the other thread waits for the lock")
        #endif
        #expect(count.value == 0, "the other thread is still waiting")
        count.value = 10
        count.lock.unlock()
        #expect(waited.wait(timeout: .now() + 20) == .success, "the waiting thread was woken")
        #expect(count.lock.withLock { count.value } == 11, "and saw what the holder wrote")
    }
}
