#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A thread of the library's own, with the stack it asks for: the one that builds the depth guard's
/// message (see ``StackLimit/stopOnAStackOfItsOwn(_:)``), and a wiring check's lanes (see
/// ``WiringLane``).
struct OwnThread {
    private let thread: pthread_t

    /// Starts `body` on a new thread with a stack of `stackSize` bytes; nil when no thread can be
    /// made. What the calling thread wrote before is visible to the new one (`pthread_create`
    /// orders them).
    static func start(stackSize: Int, _ body: @escaping () -> Void) -> OwnThread? {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, stackSize)
        defer { pthread_attr_destroy(&attributes) }
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(
            &thread,
            &attributes,
            { Unmanaged<Work>.fromOpaque($0).takeRetainedValue().run() },
            context
        )
        guard result == 0, let thread else {
            Unmanaged<Work>.fromOpaque(context).release()
            return nil
        }
        #else
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            &attributes,
            { Unmanaged<Work>.fromOpaque($0!).takeRetainedValue().run() },
            context
        )
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return nil
        }
        #endif
        return OwnThread(thread: thread)
    }

    /// Waits for the thread to end.
    func join() {
        pthread_join(thread, nil)
    }

    /// Lets the thread's resources go when it ends, without anyone waiting for it.
    func detach() {
        pthread_detach(thread)
    }

    /// The work handed to a thread's start routine: retained once by ``start(stackSize:_:)``,
    /// released by the thread that runs it.
    private final class Work: @unchecked Sendable {
        // @unchecked: handed to one thread, once.
        let body: () -> Void

        init(_ body: @escaping () -> Void) {
            self.body = body
        }

        func run() -> UnsafeMutableRawPointer? {
            body()
            return nil
        }
    }
}
