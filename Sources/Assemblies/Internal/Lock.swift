internal import CAssemblies

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A pthread mutex: the library's lock, and the one threads wait in with a ``Condition``. The
/// busiest short critical sections — ``TaskGraphs``' shards, the wait registry — take a
/// ``ShortLock`` instead.
///
/// Thread Sanitizer understands pthread mutexes (on Linux with Swift 6.3 it reports false
/// "Swift access races" through `Synchronization.Mutex`). No code that holds a `Lock` calls user
/// code, and nothing whose release may run user code (a `deinit`) is released while one is held:
/// such values are moved out of the locked region first.
final class Lock: @unchecked Sendable {
    // @unchecked: the mutex lives at a stable heap address and is only touched through pthread calls.
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "Assemblies: pthread_mutex_init failed with \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "Assemblies: pthread_mutex_lock failed with \(result)")
    }

    func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "Assemblies: pthread_mutex_unlock failed with \(result)")
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock for short critical sections that no thread waits in with a ``Condition``: one word, taken
/// with a compare-and-swap when nobody holds it — a few instructions where a pthread mutex takes
/// about sixty to lock and unlock — and waited for, when somebody holds it, with a futex on Linux
/// and `os_unfair_lock` on Apple platforms (elsewhere by yielding the processor until it is free;
/// see `assemblies_lock_word`). The same rules as ``Lock``: no user code, and no
/// release that may run a `deinit`, while it is held.
///
/// Not copyable, so that it is stored in its owner as a word's address, which no copy outlives; its
/// owner neither retains nor releases anything to take it.
struct ShortLock: ~Copyable, @unchecked Sendable {
    // @unchecked: the word lives at a stable heap address and is only touched through C atomics.
    private let word: UnsafeMutablePointer<UInt32>

    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit {
        word.deallocate()
    }

    func lock() {
        assemblies_lock_word(word)
    }

    func unlock() {
        assemblies_unlock_word(word)
    }

    /// Whether a thread found the lock held and waits for it: what a test waits for instead of
    /// sleeping. Always false on Apple platforms, whose lock doesn't say.
    var isAwaited: Bool {
        assemblies_lock_word_is_awaited(word)
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable: threads that wait on it release a ``Lock`` while they wait.
final class Condition: @unchecked Sendable {
    // @unchecked: the condition lives at a stable heap address and is only touched through pthread calls.
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        condition = .allocate(capacity: 1)
        let result = pthread_cond_init(condition, nil)
        precondition(result == 0, "Assemblies: pthread_cond_init failed with \(result)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Waits until woken, or until `seconds` have passed when given; `lock` must be held, and is
    /// held again on return. Returns false when the time ran out. Wake-ups may be spurious: callers
    /// check what they wait for in a loop.
    @discardableResult
    func wait(releasing lock: Lock, seconds: Double? = nil) -> Bool {
        guard let seconds, seconds.isFinite, seconds < 1e9 else {
            pthread_cond_wait(condition, lock.mutex)
            return true
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let whole = seconds.rounded(.down)
        var nanoseconds = Int(now.tv_nsec) + Int((seconds - whole) * 1e9)
        var deadline = now
        deadline.tv_sec += type(of: now.tv_sec).init(whole) + type(of: now.tv_sec).init(nanoseconds / 1_000_000_000)
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = type(of: now.tv_nsec).init(nanoseconds)
        return pthread_cond_timedwait(condition, lock.mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes every thread waiting on the condition.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// A value that is only read or written while its lock is held.
///
/// This is the library's one `@unchecked Sendable` box: every access goes through `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
