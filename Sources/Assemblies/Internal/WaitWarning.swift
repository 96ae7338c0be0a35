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

    /// Writes `message` as one warning line (see ``WarningOutput``). Every warning of the library
    /// goes through here, not only the wait's.
    static func print(_ message: String) {
        WarningOutput.write(message)
    }
}

/// A monotonic clock: seconds for timeouts, nanoseconds for the times of bodies.
enum Clock {
    static func seconds() -> Double {
        Double(nanoseconds()) / 1e9
    }

    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
