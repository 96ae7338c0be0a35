internal import CAssemblies

/// A thread's name as the system gives it: NUL-terminated UTF-8 bytes, kept in place.
///
/// Making a `String` of them at a thread's first read (an array, the decoding, the code of both
/// touched for the first time) cost that read about a quarter of its time: they are decoded only
/// when a message or a report names the thread.
struct ThreadNameBytes {
    /// 64 bytes: a name's limit on Apple platforms (Linux allows 16, terminator included).
    private var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// No name.
    init() {}

    /// The name of the thread running now.
    static func ofCurrentThread() -> ThreadNameBytes {
        var name = ThreadNameBytes()
        withUnsafeMutableBytes(of: &name.bytes) { buffer in
            assemblies_current_thread_name(buffer.baseAddress!, buffer.count)
        }
        return name
    }

    /// The name, up to its terminator, decoded (invalid UTF-8 repaired).
    var string: String {
        withUnsafeBytes(of: bytes) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
