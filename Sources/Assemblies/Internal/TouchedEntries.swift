/// The entries a resolver's current graph has read, by index, whose instances to release when the
/// graph ends: a buffer that doubles when full and is emptied, not freed, when a graph closes.
struct TouchedEntries {
    /// The indexes, `count` of them, in a buffer of `capacity`; freed by ``deallocate()``.
    private var indexes: UnsafeMutablePointer<Int32>
    private(set) var count = 0
    private var capacity = 16

    init() {
        indexes = .allocate(capacity: capacity)
    }

    /// Whether one more index fits without growing: what a read's inlined fast path checks.
    @inline(__always)
    var hasRoom: Bool { count < capacity }

    /// Adds `index`; only when ``hasRoom``.
    @inline(__always)
    mutating func appendWithoutGrowing(_ index: Int) {
        indexes[count] = Int32(truncatingIfNeeded: index)
        count &+= 1
    }

    /// Adds `index`, growing the buffer when it is full.
    @inline(__always)
    mutating func append(_ index: Int) {
        if count == capacity {
            grow()
        }
        appendWithoutGrowing(index)
    }

    @inline(never)
    private mutating func grow() {
        indexes = indexes.moved(count: count, toCapacity: capacity * 2)
        capacity *= 2
    }

    /// The `position`th index added.
    subscript(position: Int) -> Int { Int(indexes[position]) }

    /// Forgets every index, keeping the buffer.
    mutating func removeAll() {
        count = 0
    }

    /// Frees the buffer: once, when the resolver goes.
    func deallocate() {
        indexes.deallocate()
    }
}
