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

/// Where a thread's stack ends, so that a resolution nested too deeply stops with a message
/// instead of overflowing the stack.
///
/// Each push of a definition checks the address of its key — a local of the `define` call, so an
/// address in the current stack frame — against the thread's stack: above the *limit* (the lowest
/// address plus a reserve that leaves room to build the message and for the work a body does
/// between two reads) and below its top. It works for any stack size — a secondary thread's
/// 512 KiB on Apple platforms, 8 MiB on a main thread — because it reads the bounds of the thread
/// it runs on. A key that is not on the thread's stack at all (AddressSanitizer moves locals whose
/// address is taken to a "fake stack" of its own) takes the slow path, which reads the real stack
/// pointer instead.
struct StackLimit {
    /// The lowest address resolution may reach, or 0 when the stack's bounds are unknown.
    let limit: UInt
    /// The stack's top minus `limit`: an address `a` is fine when `a &- limit < span`.
    let span: UInt
    /// The stack's lowest address.
    let lowest: UInt

    /// The reserve kept below the deepest resolution: an eighth of the stack, at least 32 KiB and
    /// at most 256 KiB.
    static func reserve(forStackOfSize size: UInt) -> UInt {
        min(max(size / 8, 32 << 10), 256 << 10)
    }

    /// The calling thread's; no limit when its stack bounds can't be read.
    static func ofCurrentThread() -> StackLimit {
        var lowest: UInt = 0
        var size = 0
        guard assemblies_current_stack(&lowest, &size) == 0 else {
            return StackLimit(limit: 0, span: .max, lowest: 0)
        }
        let limit = lowest + reserve(forStackOfSize: UInt(size))
        return StackLimit(limit: limit, span: lowest + UInt(size) - limit, lowest: lowest)
    }

    /// Runs `stop`, which builds a message and stops the program, on a new thread with a stack of
    /// 4 MiB, while the calling thread waits for it (for ever: the program stops, or, on a wiring
    /// check's lane, the stop parks that thread, see ``WiringLane``). Nothing the calling thread
    /// refers to changes meanwhile. When no thread can be made, `stop` runs here.
    static func stopOnAStackOfItsOwn(_ stop: @escaping () -> Never) -> Never {
        let lane = assemblies_lane()
        guard
            let thread = OwnThread.start(
                stackSize: 4 << 20,
                {
                    assemblies_set_lane(lane)  // the calling thread's lane, which waits for this one
                    stop()
                }
            )
        else { stop() }
        thread.join()
        preconditionFailure("Assemblies: a stop returned")
    }

    /// Whether the stack at `address` (a local of the caller) has run into the reserve.
    func isExhausted(at address: UInt) -> Bool {
        var address = address
        if address &- lowest >= span &+ (limit - lowest) {
            // Not on this thread's stack: read the stack pointer itself.
            address = assemblies_current_stack_address()
        }
        return address &- limit >= span
    }
}
