internal import CAssemblies

/// Where a thread's stack ends, so that a resolution nested too deeply stops with a message
/// instead of overflowing the stack.
///
/// Each push of a definition compares the address of its key (a local of the getter, so an address
/// in the current stack frame) with the thread's limit: the lowest address of its stack plus a
/// reserve that leaves room to build the message and for the work one body does between two reads.
/// It works for any stack size — a secondary thread's 512 KiB on Apple platforms, 8 MiB on a main
/// thread — because it reads the bounds of the thread it runs on.
enum StackLimit {
    /// The reserve kept below the deepest resolution: an eighth of the stack, at least 32 KiB and
    /// at most 256 KiB.
    static func reserve(forStackOfSize size: UInt) -> UInt {
        min(max(size / 8, 32 << 10), 256 << 10)
    }

    /// The limit for the calling thread, or 0 (no check) when its stack bounds can't be read.
    static func ofCurrentThread() -> UInt {
        var lowest: UInt = 0
        var size = 0
        guard assemblies_current_stack(&lowest, &size) == 0 else { return 0 }
        return lowest + reserve(forStackOfSize: UInt(size))
    }
}
