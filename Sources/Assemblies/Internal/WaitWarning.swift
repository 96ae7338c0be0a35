#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The warning a thread prints when it has waited long for a singleton that another thread builds.
enum WaitWarning {
    private static let storedDelay = Locked<Double>(1)

    /// Seconds a thread waits before it warns (see ``Assembly/singletonWaitWarningDelay``).
    static var delay: Double {
        get { storedDelay.withLock { $0 } }
        set { storedDelay.withLock { $0 = newValue } }
    }

    /// How often a waiting thread looks again for a cycle of waits, in seconds. Threads are woken
    /// when what they wait for changes hands, but a cycle can also close through a thread that
    /// starts waiting elsewhere; looking again now and then finds every cycle soon, whatever the
    /// order of events.
    static let recheckInterval = 0.01

    /// Writes `message` to standard error in one call, so that two threads' warnings don't interleave.
    static func print(_ message: String) {
        let line = "Assemblies: warning: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// Seconds on a monotonic clock, for timeouts.
enum Clock {
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
