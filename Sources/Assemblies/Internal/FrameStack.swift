/// The definitions a resolver is building, innermost last: a frame per read whose body runs, in a
/// buffer that doubles when full and is kept from one graph to the next.
///
/// A push stores a frame, unless the buffer is full or the depth has come to the next check for a
/// cycle made only of prototypes (``PushLimits``): a resolver's fast paths check ``canPushQuickly``
/// and leave the rest to ``Resolver/push(_:entry:scope:)``. A frame is popped by lowering ``count``.
///
/// Owned by one ``Resolver``, which frees it (``deallocate()``) once, when it goes (a task's
/// resolver keeps it from one task's graph to the next, see ``Resolver/serve(_:)``). Bitwise copyable, so that
/// reading a frame copies nothing that counts references.
struct FrameStack: BitwiseCopyable {
    /// A definition being built, and the instance its body registered.
    ///
    /// Trivial to copy and to drop: the key is a copy (whose arguments the `define` call being
    /// built keeps alive), and the registered instance is retained by hand — by
    /// ``Resolver/register(_:in:key:)`` — and released, or handed on to the entry, when the frame is
    /// left or undone.
    struct Frame {
        var key: DefinitionKey
        /// The entry of a shared definition, or -1 for a prototype or a stored definition.
        var entry: Int32
        var scope: Scope.Kind
        /// What leaving the frame does beyond finishing its instance.
        var flags: Resolver.FrameFlags
        /// Tells the frame from a later one at the same index, so that a ``Definition`` kept past
        /// its body is recognised.
        var serial: UInt64
        /// The instance the body registered (an object, or a ``ValueBox``), retained.
        var object: Unmanaged<AnyObject>?

        /// A frame with no flags and no instance. (Written out rather than memberwise: pushing
        /// through the memberwise initializer made the read entries copy the key onto the stack as
        /// they start, whatever the path — 186 more instructions for the graph of 10.)
        init(key: DefinitionKey, entry: Int32, scope: Scope.Kind, serial: UInt64) {
            self.key = key
            self.entry = entry
            self.scope = scope
            flags = []
            self.serial = serial
            object = nil
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
    /// How many frames are open; the innermost is `count - 1`. Lowered to pop frames.
    var count = 0
    private(set) var limits = PushLimits()
    /// The serial of the last frame pushed.
    private var lastSerial: UInt64 = 0

    init() {
        buffer = .allocate(capacity: limits.capacity)
    }

    /// Frees the buffer: once, by the resolver that owns it.
    func deallocate() {
        buffer.deallocate()
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

    /// The key of the frame `index`, where it lies: compared there (``DefinitionKey/same(at:_:)``),
    /// it is not copied first.
    @inline(__always)
    func keyAddress(_ index: Int) -> UnsafePointer<DefinitionKey> {
        UnsafeRawPointer(buffer + index).advanced(by: MemoryLayout<Frame>.offset(of: \Frame.key)!)
            .assumingMemoryBound(to: DefinitionKey.self)
    }

    /// The serial the next frame pushed gets.
    var nextSerial: UInt64 { lastSerial &+ 1 }

    /// Whether a frame fits without growing the buffer or looking for a cycle of prototypes.
    @inline(__always)
    var canPushQuickly: Bool { count < limits.quick }

    /// Pushes a frame for `key`, when ``canPushQuickly`` or once the buffer has room (see
    /// ``makeRoom()``); returns its index.
    @inline(__always)
    mutating func push(_ key: DefinitionKey, entry: Int, scope: Scope.Kind) -> Int {
        let index = count
        lastSerial &+= 1
        (buffer + index).initialize(
            to: Frame(key: key, entry: Int32(truncatingIfNeeded: entry), scope: scope, serial: lastSerial)
        )
        count = index &+ 1
        return index
    }

    /// Makes room for one more frame, doubling the buffer when it is full.
    mutating func makeRoom() {
        guard count == limits.capacity else { return }
        buffer = buffer.moved(count: count, toCapacity: limits.capacity * 2)
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
