/// The shared definitions of a resolver's graphs — object-graph definitions, and explicit keys of
/// any scope — each with an entry: its state in the current graph, and the instance it shares.
///
/// Keys stay from one graph to the next, so a steady program looks each key up without inserting
/// it again; an entry belongs to the current graph when it is marked ``Entry/isCurrent``, and counts
/// as absent otherwise. The entries a graph touched are listed (``touched``), so that closing it
/// releases their instances and unmarks them without visiting the others. Past ``keyLimit`` keys
/// (injections key by object, so keys can keep coming), the table is emptied when a graph ends.
///
/// Owned by one ``Resolver``, which frees it (``deallocate()``) once, when it goes (a task's
/// resolver keeps it from one task's graph to the next, see ``Resolver/serve(_:)``). Bitwise copyable, so that
/// reading it for a lookup copies nothing that counts references: the argument lists that keys of
/// the current graph refer to are kept by the resolver (``Resolver/argumentEntries``).
struct GraphEntries: BitwiseCopyable {
    /// A shared definition's slot in the graph.
    struct Entry {
        enum State: UInt8 {
            /// A prototype or a stored definition (singleton, weak singleton, resettable scope) with an
            /// explicit key, kept only to check the key's type and scope.
            case checkOnly
            /// Being built by the frame `frame`, which holds the instance once registered.
            case building
            /// Built, and shared for the rest of the graph.
            case done
        }

        // The word first, then the small fields: 16 bytes an entry.

        /// The instance (an object, or a ``ValueBox``), retained by hand: released when the graph
        /// closes.
        var object: Unmanaged<AnyObject>?
        var frame: Int32
        var scope: Scope.Kind
        var state: State
        /// Whether reads of the key need the checks of ``Resolver/enter(_:scope:)``: an explicit key
        /// (its type and scope), or a method with parameters (read twice in a graph).
        var isSpecial: Bool
        /// Whether the current graph has read the entry: set by its first read in the graph, which
        /// lists it in ``touched``, and cleared when the graph closes (or the frame that built it
        /// is undone). An entry not marked counts as absent.
        var isCurrent: Bool
    }

    /// Past this many keys, the table is emptied when a graph ends.
    static let keyLimit = 4_096

    /// The keys this thread has read, numbered densely: a key's number indexes its entry.
    private(set) var keys = KeyTable(capacity: 16)
    /// Parallel to `keys`: `keys.count` of them initialized, in a buffer of `keys.capacity`.
    private var storage: UnsafeMutablePointer<Entry>
    /// The entries read in the current graph: every entry marked ``Entry/isCurrent`` is listed.
    private(set) var touched = TouchedEntries()

    init() {
        storage = .allocate(capacity: keys.capacity)
    }

    /// Frees the table: once, by the resolver that owns it.
    func deallocate() {
        storage.deinitialize(count: keys.count)
        storage.deallocate()
        keys.deallocate()
        touched.deallocate()
    }

    /// Whether the current graph has touched nothing: what a resolver is between two graphs.
    var isEmpty: Bool { touched.count == 0 }

    // MARK: Looking up

    /// The number of `key`, or -1 when this thread has not read it (or the table was emptied since),
    /// with the slot where it would go.
    @inline(__always)
    func find(_ key: DefinitionKey) -> (index: Int, slot: Int) {
        keys.find(key)
    }

    /// The entry numbered `index`.
    @inline(__always)
    func entry(_ index: Int) -> UnsafeMutablePointer<Entry> {
        storage + index
    }

    /// Whether the entry numbered `index` was read in the current graph.
    @inline(__always)
    func isCurrent(_ index: Int) -> Bool {
        storage[index].isCurrent
    }

    /// The key of the entry numbered `index`.
    func key(at index: Int) -> DefinitionKey {
        keys.keys[index]
    }

    /// Where the key of the entry numbered `index` lies, until the table grows or forgets its keys.
    @inline(__always)
    func keyAddress(at index: Int) -> UnsafePointer<DefinitionKey> {
        UnsafePointer(keys.keys + index)
    }

    // MARK: A graph's reads

    /// A new graph begins: every entry counts as absent until it is read again, since the last
    /// graph's were unmarked when it closed.
    func beginGraph() {
        assert(touched.count == 0, "Assemblies: a graph began before the last one closed")
    }

    /// The first read, in this graph, of the object-graph entry numbered `index`, which an earlier
    /// graph read and which is neither explicit nor a method with parameters: marks it being built,
    /// and returns true; false, having changed nothing, when the list of touched entries is full.
    @inline(__always)
    mutating func startBuildingQuickly(_ index: Int) -> Bool {
        guard touched.hasRoom else { return false }
        let entry = storage + index
        entry.pointee.isCurrent = true
        entry.pointee.scope = .objectGraph
        entry.pointee.state = .building
        touched.appendWithoutGrowing(index)
        return true
    }

    /// The first read of `key` on this thread (or since the table was emptied), an object-graph
    /// definition that is neither explicit nor a method with parameters, and has no arguments: inserts
    /// it at `slot` (from ``find(_:)``) with its entry current and being built, and returns its
    /// number; nil, having changed nothing, when the table or the list of touched entries is full.
    @inline(__always)
    mutating func insertBuildingQuickly(_ key: DefinitionKey, slot: Int) -> Int? {
        guard !keys.isFull && touched.hasRoom else { return nil }
        let index = keys.insert(key, slot: slot)
        (storage + index).initialize(
            to: Entry(object: nil, frame: -1, scope: .objectGraph, state: .building, isSpecial: false, isCurrent: true)
        )
        touched.appendWithoutGrowing(index)
        return index
    }

    /// The number of `key`'s entry in the current graph, inserted if new, and whether this is the
    /// key's first read in the graph. An entry first read in this graph is `.building` with no frame,
    /// in `scope` (or `.checkOnly` for a prototype or a stored definition, which only have an entry
    /// when their key is explicit). `lookup` is what ``find(_:)`` returns for the key.
    @inline(__always)
    mutating func index(
        of key: DefinitionKey,
        scope: Scope.Kind,
        lookup: (index: Int, slot: Int)
    ) -> (index: Int, isFirstInGraph: Bool) {
        var (found, slot) = lookup
        if found < 0 {
            if keys.isFull {
                keys.grow()
                storage = storage.moved(count: keys.count, toCapacity: keys.capacity)
                slot = keys.find(key).slot
            }
            found = keys.insert(key, slot: slot)
            (storage + found).initialize(
                to: Entry(
                    object: nil,
                    frame: -1,
                    scope: scope,
                    state: .done,
                    isSpecial: key.readsNeedChecks,
                    isCurrent: false
                )
            )
        }
        let entry = storage + found
        guard !entry.pointee.isCurrent else { return (found, false) }
        entry.pointee.isCurrent = true
        entry.pointee.scope = scope
        entry.pointee.state = scope == .objectGraph ? .building : .checkOnly
        entry.pointee.frame = -1
        if key.isExplicit {
            // The explicit key's first definer in this graph names it in messages.
            keys.replaceKey(at: found, with: key)
        }
        touched.append(found)
        return (found, true)
    }

    /// Forgets what the current graph has of the entry numbered `index`, whose frame was undone.
    func forget(_ index: Int) {
        storage[index].isCurrent = false
        storage[index].object = nil
    }

    /// Drops the argument values of the key numbered `index` as its graph closes (see
    /// ``KeyTable/dropArguments(at:)``).
    func dropArguments(at index: Int) {
        keys.dropArguments(at: index)
    }

    /// Ends the current graph: releases the instances it shared, and keeps the keys unless there are
    /// more than ``keyLimit``. Releasing runs deinits, which may read assemblies again: the caller
    /// makes sure they start a graph elsewhere (see ``Resolver/closeGraph()``).
    @inline(__always)
    mutating func closeGraph() {
        for index in 0..<touched.count {
            let entry = storage + touched[index]
            entry.pointee.object?.release()
            entry.pointee.object = nil
            entry.pointee.isCurrent = false
        }
        touched.removeAll()
        if keys.count > Self.keyLimit {
            storage.deinitialize(count: keys.count)
            keys.removeAll()
        }
    }
}
