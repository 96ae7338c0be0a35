public import CAssemblies

/// A count that threads change and read atomically, with relaxed ordering: a family's number of
/// override contexts, which every read checks.
///
/// The word lives in memory of its own, because C11 atomics (in `CAssemblies`) need an address
/// that doesn't move; `Synchronization.Atomic`, which could live inline, needs macOS 15 / iOS 18.
/// A count doesn't free its memory: one made with ``init()`` lives as long as the process (a
/// static's), and the owner of ``AtomicCounts`` frees theirs, once, when nothing can read them any
/// more (see `UnsafeCode.md`) — so no count can free memory that other counts share.
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
    static var lineSize: Int { 128 }

    /// A count on lines of its own, for as long as the process runs.
    init() {
        word = AtomicCounts.allocate(1)
    }

    /// The count at `word`, in memory that ``AtomicCounts`` owns.
    fileprivate init(word: UnsafeMutablePointer<Int>) {
        self.word = word
    }

    /// Whether the count is zero: one relaxed load.
    @inlinable
    @inline(__always)
    var isZero: Bool { assemblies_load_relaxed(word) == 0 }

    func increment() { assemblies_add_relaxed(word, 1) }

    func decrement() { assemblies_add_relaxed(word, -1) }

    /// The count now: one relaxed load.
    var value: Int { assemblies_load_relaxed(word) }
}

/// Counts that each have lines of their own (``AtomicCount/lineSize`` bytes), in one allocation,
/// which the owner frees (``deallocate()``): a family's, made with the family, with one allocation
/// instead of one per count; a task record's one.
struct AtomicCounts: @unchecked Sendable {
    // @unchecked: the memory is only read and written through `AtomicCount`'s atomic functions.
    private let base: UnsafeMutablePointer<Int>

    /// `count` counts, each zero.
    init(count: Int) {
        base = Self.allocate(count)
    }

    /// The count at `index`, below the count this was made with.
    subscript(index: Int) -> AtomicCount {
        AtomicCount(word: base + index * (AtomicCount.lineSize / MemoryLayout<Int>.stride))
    }

    /// Frees the counts' memory: once, when nothing can read any of them any more.
    func deallocate() { UnsafeMutableRawPointer(base).deallocate() }

    /// Memory for `count` counts, each zero, aligned to a line, each on lines of its own.
    fileprivate static func allocate(_ count: Int) -> UnsafeMutablePointer<Int> {
        let size = AtomicCount.lineSize
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count * size, alignment: size)
        for index in 0..<count {
            (memory + index * size).initializeMemory(as: Int.self, repeating: 0, count: 1)
        }
        return memory.assumingMemoryBound(to: Int.self)
    }
}
