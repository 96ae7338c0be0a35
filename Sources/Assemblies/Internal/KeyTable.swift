/// An open-addressing hash table of ``DefinitionKey``s that numbers keys densely from zero.
///
/// The graph and the singleton cache keep their values in parallel buffers indexed by that number.
/// Nothing is allocated once the table has grown to hold every key a thread reads.
struct KeyTable {
    private(set) var keys: UnsafeMutablePointer<DefinitionKey>
    /// Slot → index + 1, or 0 for an empty slot. Twice as many slots as keys keeps probes short.
    private var slots: UnsafeMutablePointer<Int32>
    private var slotMask: Int
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        keys = .allocate(capacity: capacity)
        slots = .allocate(capacity: capacity * 2)
        slots.initialize(repeating: 0, count: capacity * 2)
        slotMask = capacity * 2 - 1
    }

    func deallocate() {
        keys.deallocate()
        slots.deallocate()
    }

    var isFull: Bool { count == capacity }

    /// The index of `key`, or -1 with the slot where it would go.
    @inline(__always)
    func find(_ key: DefinitionKey) -> (index: Int, slot: Int) {
        var slot = Int(truncatingIfNeeded: key.hashBits) & slotMask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { return (-1, slot) }
            let index = stored - 1
            if DefinitionKey.same(at: keys + index, key) { return (index, slot) }
            slot = (slot + 1) & slotMask
        }
    }

    /// Adds `key` at `slot` (from ``find(_:)``); the table must not be full.
    @inline(__always)
    mutating func insert(_ key: DefinitionKey, slot: Int) -> Int {
        let index = count
        (keys + index).initialize(to: key)
        slots[slot] = Int32(index + 1)
        count += 1
        return index
    }

    /// Quadruples the capacity, keeping every key at its index: a first read of a large graph, which
    /// fills the table as it goes, copies a third as many keys as by doubling. (Room not yet used
    /// is allocated, not touched: but for the slots, it costs no memory.)
    mutating func grow() {
        let newCapacity = capacity * 4
        let newKeys = UnsafeMutablePointer<DefinitionKey>.allocate(capacity: newCapacity)
        newKeys.moveInitialize(from: keys, count: count)
        let newSlots = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity * 2)
        newSlots.initialize(repeating: 0, count: newCapacity * 2)
        let newMask = newCapacity * 2 - 1
        for index in 0..<count {
            var slot = Int(truncatingIfNeeded: newKeys[index].hashBits) & newMask
            while newSlots[slot] != 0 { slot = (slot + 1) & newMask }
            newSlots[slot] = Int32(index + 1)
        }
        deallocate()
        keys = newKeys
        slots = newSlots
        slotMask = newMask
        capacity = newCapacity
    }

    /// Replaces the key at `index` by an equal one, for an explicit key's first definer in a new graph.
    func replaceKey(at index: Int, with key: DefinitionKey) {
        keys[index] = key
    }

    /// Drops the argument values of the key at `index` when its graph closes; the key then matches
    /// no other key, and is forgotten with the others once the table is emptied.
    func dropArguments(at index: Int) {
        keys[index].arguments = nil
    }

    /// Forgets every key, touching only the slots in use: each key's is found again from its hash,
    /// scanning on past the slots already cleared (a key's slot lies on the way from its first
    /// choice, and holes left by keys cleared before it don't end the scan).
    mutating func removeAll() {
        for index in 0..<count {
            var slot = Int(truncatingIfNeeded: keys[index].hashBits) & slotMask
            while slots[slot] != Int32(index + 1) { slot = (slot + 1) & slotMask }
            slots[slot] = 0
        }
        keys.deinitialize(count: count)
        count = 0
    }
}
