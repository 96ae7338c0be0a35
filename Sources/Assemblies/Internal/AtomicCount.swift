public import CAssemblies

/// A count that threads change and read atomically, with relaxed ordering: a family's number of
/// override contexts, which every read checks.
///
/// The word lives in memory of its own, because C11 atomics (in `CAssemblies`) need an address
/// that doesn't move; `Synchronization.Atomic`, which could live inline, needs macOS 15 / iOS 18.
/// Its owner calls ``deallocate()`` once, when nothing can read it any more (see `UnsafeCode.md`).
///
/// The word has a cache line to itself, with the line beside it (``lineSize`` bytes, aligned to
/// them): a count that every read of a family loads, sharing a line with an object that threads
/// retain and release — a singleton allocated just after it, say — made every read of the family
/// wait for that line to come back from the other core (1.2–1.4× the time of the same reads on two
/// threads, depending on where the allocator had put the count); and a count that changes often
/// (the open async graphs) doesn't move the line of one that every read loads.
@usableFromInline
struct AtomicCount: @unchecked Sendable {
    // @unchecked: the pointer is only read and written through the atomic functions below.
    @usableFromInline let word: UnsafeMutablePointer<Int>

    /// Bytes a count keeps to itself: two 64-byte lines, which x86 processors fetch in pairs, or one
    /// 128-byte line of Apple silicon.
    private static let lineSize = 128

    init() {
        word = UnsafeMutableRawPointer.allocate(byteCount: Self.lineSize, alignment: Self.lineSize)
            .initializeMemory(as: Int.self, repeating: 0, count: 1)
    }

    /// Whether the count is zero: one relaxed load.
    @inlinable
    @inline(__always)
    var isZero: Bool { assemblies_load_relaxed(word) == 0 }

    func increment() { assemblies_add_relaxed(word, 1) }

    func decrement() { assemblies_add_relaxed(word, -1) }

    /// The count now: one relaxed load.
    var value: Int { assemblies_load_relaxed(word) }

    func deallocate() { UnsafeMutableRawPointer(word).deallocate() }
}
