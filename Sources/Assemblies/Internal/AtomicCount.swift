public import CAssemblies

/// A count that threads change and read atomically, with relaxed ordering: a family's number of
/// override contexts, which every read checks.
///
/// The word lives in memory of its own, because C11 atomics (in `CAssemblies`) need an address
/// that doesn't move; `Synchronization.Atomic`, which could live inline, needs macOS 15 / iOS 18.
/// Its owner calls ``deallocate()`` once, when nothing can read it any more (see `UnsafeCode.md`).
@usableFromInline
struct AtomicCount: @unchecked Sendable {
    // @unchecked: the pointer is only read and written through the atomic functions below.
    @usableFromInline let word: UnsafeMutablePointer<Int>

    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    /// Whether the count is zero: one relaxed load.
    @inlinable
    @inline(__always)
    var isZero: Bool { assemblies_load_relaxed(word) == 0 }

    func increment() { assemblies_add_relaxed(word, 1) }

    func decrement() { assemblies_add_relaxed(word, -1) }

    /// The count now: one relaxed load.
    var value: Int { assemblies_load_relaxed(word) }

    func deallocate() { word.deallocate() }
}
