// A barrier for two threads that spins, so that both start a sample within a few hundred nanoseconds.

import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Two threads meet here: each call returns once both threads have called it as many times. The
/// waiting thread spins, yielding the processor, so that a thread the scheduler has put aside is not
/// kept from running.
final class TwoThreadBarrier: Sendable {
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)

    func arriveAndWait() {
        let current = generation.load(ordering: .acquiring)
        if arrived.add(1, ordering: .acquiringAndReleasing).newValue == 2 {
            arrived.store(0, ordering: .relaxed)
            generation.store(current &+ 1, ordering: .releasing)
            return
        }
        while generation.load(ordering: .acquiring) == current {
            sched_yield()
        }
    }
}
