/// The reads being reported on a resolver, innermost last (see
/// ``Resolver/beginReport(_:scope:source:to:inGraph:)``): a buffer of trivial ``Resolver/TraceFrame``s that
/// is allocated by the first report, doubles when full, and is freed with the resolver.
///
/// Not an `Array`: each report pushes, updates and pops its frame in place, and an array's
/// uniqueness checks and the copy of the 20-word frame `removeLast()` hands back cost more than the
/// rest of the bookkeeping.
struct TraceFrames {
    /// The frames, `count` of them, in a buffer of `capacity`; nil until the first report.
    private var frames: UnsafeMutablePointer<Resolver.TraceFrame>?
    private(set) var count = 0
    private var capacity = 0

    var isEmpty: Bool { count == 0 }

    /// Adds `frame`, innermost.
    mutating func append(_ frame: Resolver.TraceFrame) {
        if count == capacity {
            capacity = max(8, capacity * 2)
            frames = frames?.moved(count: count, toCapacity: capacity) ?? .allocate(capacity: capacity)
        }
        (frames! + count).initialize(to: frame)
        count += 1
    }

    /// Drops the innermost frame.
    mutating func removeLast() {
        precondition(count > 0, "Assemblies: a report ended that never began")
        count -= 1
    }

    /// The frame at `index`, read and written in place; `index` below ``count``.
    subscript(index: Int) -> Resolver.TraceFrame {
        unsafeAddress {
            precondition(index >= 0 && index < count, "Assemblies: a report's frame out of range")
            return UnsafePointer(frames! + index)
        }
        unsafeMutableAddress {
            precondition(index >= 0 && index < count, "Assemblies: a report's frame out of range")
            return frames! + index
        }
    }

    /// Runs `body` on the innermost frame, in place: one check for all it reads and writes.
    @inline(__always)
    mutating func updateLast(_ body: (inout Resolver.TraceFrame) -> Void) {
        precondition(count > 0, "Assemblies: a report's frame out of range")
        body(&frames![count - 1])
    }

    /// Frees the buffer: once, when the resolver goes.
    func deallocate() {
        frames?.deallocate()
    }
}
