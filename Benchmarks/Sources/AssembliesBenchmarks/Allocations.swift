// Heap allocations per resolution, heap kept by the framework, and objects that outlive their graph.

import AllocationCounter

/// What one resolution costs the heap, counted over a batch of resolutions.
struct HeapCost {
    /// `malloc`-family calls per resolution (the Swift runtime allocates every object through them).
    let allocations: Double
    /// Bytes allocated and not freed per resolution, once the graph is dropped: memory the
    /// framework keeps (caches, bookkeeping that grows) after its objects are gone.
    let keptBytes: Double
}

enum Allocations {
    /// Whether this build counts allocations (glibc Linux; see AllocationCounter.c).
    static let areCounted: Bool = {
        guard allocation_counter_is_available() else { return false }
        allocation_counter_start()
        blackHole(Probe())
        return allocation_counter_stop().allocations == 1
    }()

    private final class Probe {}

    /// Counts the heap traffic of `run(operations)` after one warm-up batch, or nil when allocations
    /// are not counted on this platform.
    static func cost(of run: (Int) -> Void, operations: Int) -> HeapCost? {
        guard areCounted else { return nil }
        run(operations)
        allocation_counter_start()
        run(operations)
        let counts = allocation_counter_stop()
        return HeapCost(
            allocations: Double(counts.allocations) / Double(operations),
            keptBytes: Double(counts.allocatedBytes - counts.freedBytes) / Double(operations)
        )
    }
}

/// A weak reference to an object of a resolved graph.
private struct WeakReference {
    weak var object: AnyObject?
}

/// How many of a graph's objects are still alive after the caller dropped the graph.
///
/// Resolves one graph, takes weak references to every object in it, drops it, and counts the weak
/// references that did not go nil: whatever the framework (or a global) still holds.
func objectsAliveAfterDrop(_ resolve: () -> AnyObject) -> Int {
    weakReferencesToGraph(resolve).filter { $0.object != nil }.count
}

@inline(never)
private func weakReferencesToGraph(_ resolve: () -> AnyObject) -> [WeakReference] {
    let root = resolve()
    return GraphShape.objects(reachableFrom: root).map { WeakReference(object: $0) }
}
