/// The definitions a resolver is building, innermost last: a frame per read whose body runs, in a
/// buffer that doubles when full and is kept from one graph to the next.
///
/// A push stores a frame, unless the buffer is full or the depth has come to the next check for a
/// cycle made only of prototypes (``PushLimits``): a resolver's fast paths check ``canPushQuickly``
/// and leave the rest to ``Resolver/push(_:entry:scope:)``. A frame is popped by lowering ``count``.
///
/// A frame of a shared definition names its key by its entry: the graph's table holds the key
/// for as long as the frame is open (the table drops keys only when a graph closes, and a graph
/// closes once its frames have left), so the push doesn't copy it — eight words a read. Every other
/// frame (a prototype's, a stored definition's) keeps a copy of its key here, in a buffer parallel
/// to the frames; the place of a frame with an entry is left uninitialized there. The resolver
/// finds a frame's key either way (``Resolver/keyAddress(ofFrame:)``).
///
/// Owned by one ``Resolver``, which frees it (``deallocate()``) once, when it goes (a task's
/// resolver keeps it from one task's graph to the next, see ``Resolver/serve(_:)``). Bitwise copyable, so that
/// reading a frame copies nothing that counts references.
struct FrameStack: BitwiseCopyable {
    /// A definition being built, and the instance its body registered.
    ///
    /// Trivial to copy and to drop: the registered instance is retained by hand — by
    /// ``Resolver/register(_:in:key:)`` — and released, or handed on to the entry, when the frame is
    /// left or undone.
    struct Frame {
        /// The entry of a shared definition, whose key the graph's table holds, or -1 for a
        /// prototype or a stored definition, whose key is ``FrameStack/ownKey(_:)``.
        var entry: Int32
        var scope: Scope.Kind
        /// What leaving the frame does beyond finishing its instance.
        var flags: Resolver.FrameFlags
        /// Tells the frame from a later one at the same index, so that a ``Definition`` kept past
        /// its body is recognised.
        var serial: UInt64
        /// The instance the body registered (an object, or a ``ValueBox``), retained.
        var object: Unmanaged<AnyObject>?
        /// The key's ``DefinitionKey/hashBits``: a frame whose key can't be the one looked for is
        /// told without finding its key (see ``Resolver/frame(_:builds:)``).
        var hashBits: UInt

        /// A frame with no flags and no instance.
        init(entry: Int32, scope: Scope.Kind, serial: UInt64, hashBits: UInt) {
            self.entry = entry
            self.scope = scope
            flags = []
            self.serial = serial
            object = nil
            self.hashBits = hashBits
        }

        var hasInstance: Bool { object != nil }
    }

    /// When a push needs more than storing a frame: the buffer of frames is full, or the depth has
    /// come to the next check for a cycle made only of prototypes.
    struct PushLimits {
        /// How many frames the buffer holds.
        private(set) var capacity = 16
        /// The depth at which to look for a cycle made only of prototypes next.
        private(set) var nextCycleCheck = FrameStack.firstCycleCheck
        /// Below this many frames, a frame can be pushed without growing the buffer or looking for
        /// a cycle of prototypes: ``capacity`` and ``nextCycleCheck`` in one compare.
        private(set) var quick = min(16, FrameStack.firstCycleCheck - 1)

        /// The buffer has doubled.
        mutating func doubleCapacity() {
            capacity *= 2
            updateQuick()
        }

        /// A cycle was looked for at ``nextCycleCheck``: the next check is twice as deep.
        mutating func checkTwiceAsDeepNext() {
            nextCycleCheck *= 2
            updateQuick()
        }

        /// A graph has closed: the next one checks from ``FrameStack/firstCycleCheck`` again.
        mutating func checkFromTheStart() {
            guard nextCycleCheck != FrameStack.firstCycleCheck else { return }
            nextCycleCheck = FrameStack.firstCycleCheck
            updateQuick()
        }

        /// Sets ``quick`` to the lower of the two limits.
        private mutating func updateQuick() {
            quick = min(capacity, nextCycleCheck - 1)
        }
    }

    /// The depth of the first check for a cycle made only of prototypes; then each time the depth
    /// doubles.
    static let firstCycleCheck = 128

    /// `count` frames, in a buffer of `limits.capacity`.
    private var buffer: UnsafeMutablePointer<Frame>
    /// Parallel to `buffer`: the key of each frame without an entry (a copy, whose arguments the
    /// `define` call being built keeps alive); uninitialized at the index of a frame with one.
    private var keys: UnsafeMutablePointer<DefinitionKey>
    /// How many frames are open; the innermost is `count - 1`. Lowered to pop frames.
    var count = 0
    private(set) var limits = PushLimits()
    /// The serial of the last frame pushed.
    private var lastSerial: UInt64 = 0

    init() {
        buffer = .allocate(capacity: limits.capacity)
        keys = .allocate(capacity: limits.capacity)
    }

    /// Frees the buffers: once, by the resolver that owns them.
    func deallocate() {
        buffer.deallocate()
        keys.deallocate()
    }

    /// The frame at `index`, which must be below ``count``, in place.
    subscript(index: Int) -> Frame {
        @inline(__always)
        unsafeAddress { UnsafePointer(buffer + index) }
        @inline(__always)
        nonmutating unsafeMutableAddress { buffer + index }
    }

    /// The address of the frame at `index`, which must be below ``count``.
    @inline(__always)
    func address(_ index: Int) -> UnsafeMutablePointer<Frame> {
        buffer + index
    }

    /// The key of the frame `index`, which has no entry, where it lies: compared there
    /// (``DefinitionKey/same(at:_:)``), it is not copied first.
    @inline(__always)
    func ownKey(_ index: Int) -> UnsafePointer<DefinitionKey> {
        UnsafePointer(keys + index)
    }

    /// The serial the next frame pushed gets.
    var nextSerial: UInt64 { lastSerial &+ 1 }

    /// Whether a frame fits without growing the buffer or looking for a cycle of prototypes.
    @inline(__always)
    var canPushQuickly: Bool { count < limits.quick }

    /// Pushes a frame for `key`, the key of the shared definition of `entry`, when
    /// ``canPushQuickly`` or once the buffer has room (see ``makeRoom()``); returns its index. The
    /// entry holds the key.
    @inline(__always)
    mutating func push(_ key: borrowing DefinitionKey, entry: Int, scope: Scope.Kind) -> Int {
        let index = count
        lastSerial &+= 1
        (buffer + index).initialize(
            to: Frame(entry: Int32(truncatingIfNeeded: entry), scope: scope, serial: lastSerial, hashBits: key.hashBits)
        )
        count = index &+ 1
        return index
    }

    /// Pushes a frame without an entry for `key` (see ``push(_:entry:scope:)``), keeping a copy of
    /// the key.
    @inline(__always)
    mutating func push(_ key: DefinitionKey, scope: Scope.Kind) -> Int {
        (keys + count).initialize(to: key)
        return push(key, entry: -1, scope: scope)
    }

    /// Makes room for one more frame, doubling the buffer when it is full.
    mutating func makeRoom() {
        guard count == limits.capacity else { return }
        buffer = buffer.moved(count: count, toCapacity: limits.capacity * 2)
        // The keys move as bytes: the places of frames with entries hold none.
        let grownKeys = UnsafeMutablePointer<DefinitionKey>.allocate(capacity: limits.capacity * 2)
        UnsafeMutableRawPointer(grownKeys).copyMemory(from: keys, byteCount: count * MemoryLayout<DefinitionKey>.stride)
        keys.deallocate()
        keys = grownKeys
        limits.doubleCapacity()
    }

    /// Whether the next push comes to the depth at which to look for a cycle of prototypes.
    var isAtCycleCheck: Bool { count + 1 == limits.nextCycleCheck }

    /// A cycle of prototypes was looked for: the next check is twice as deep.
    mutating func checkTwiceAsDeepNext() {
        limits.checkTwiceAsDeepNext()
    }

    /// A graph has closed: the next one looks for cycles of prototypes from the start again.
    mutating func checkFromTheStart() {
        limits.checkFromTheStart()
    }
}
