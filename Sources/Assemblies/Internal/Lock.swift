#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A pthread mutex: the one lock the library uses.
///
/// Thread Sanitizer understands pthread mutexes (on Linux with Swift 6.3 it reports false
/// "Swift access races" through `Synchronization.Mutex`), and a pthread mutex can be made
/// recursive, which the singleton builder needs because singleton bodies re-enter the framework.
/// Code that holds a non-recursive `Lock` never calls user code.
final class Lock: @unchecked Sendable {
    // @unchecked: the mutex lives at a stable heap address and is only touched through pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive {
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        }
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
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
