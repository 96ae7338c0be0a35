internal import CAssemblies

/// A family's reference to its root assembly, which neither keeps the root alive nor is a `weak`
/// reference: a weak reference would give the root a side table, and every retain and release of
/// the root — each `await` read of one of its members, each closure that captures it — would take
/// the runtime's slow path.
///
/// Kept under the family's lock (``Family``'s state). It holds the root's address until the root's
/// `deinit` clears it (``Family/rootWillDeinit(_:)``), under that lock, before the root's memory is
/// freed: so while it holds an address, the memory there is the root's. ``retained()`` takes a
/// strong reference only if the root's `deinit` has not begun, as loading a weak reference would.
struct RootReference {
    private let root: Unmanaged<Assembly>

    init(_ root: Assembly) {
        self.root = .passUnretained(root)
    }

    /// Whether `assembly` is the root.
    func refers(to assembly: Assembly) -> Bool {
        root.toOpaque() == Unmanaged.passUnretained(assembly).toOpaque()
    }

    /// A strong reference to the root, or nil once its last reference has gone (its `deinit` has
    /// begun, or is about to). Call it under the family's lock, and release the reference after
    /// letting go of the lock: it may be the root's last one.
    func retained() -> Assembly? {
        guard assemblies_try_retain(root.toOpaque()) else { return nil }
        return root.takeRetainedValue()
    }
}
