/// One stored definition's place in a ``SingletonStore``: its instance, or how far it has got.
///
/// A slot is *building* while a body on some thread builds it, *pending* once the body has
/// returned but the instance may still point at an instance being wired further down that thread
/// (see ``Resolver/settle(_:)``), and *published* once it is whole: from then
/// on it is never replaced. Every mutable field is only touched while the store's lock is held.
@usableFromInline
final class SingletonSlot: @unchecked Sendable {
    // @unchecked: the mutable fields are guarded by the owning store's lock.

    enum State {
        case building, pending, published
    }

    /// The key, with the argument values it names.
    let storedKey: StoredKey
    var key: DefinitionKey { storedKey.key }
    let scope: Scope
    var state = State.building
    /// While building: the thread building it. While pending: the thread whose frame it waits for,
    /// which may take it (no other thread may). Nil once published.
    var owner: ResolverThread?
    /// The thread that built it, until it is published: it keeps a pending slot, and re-settles it
    /// when what it waits for has finished.
    var holder: ResolverThread?
    /// While building: the frame that builds it.
    var builder: FrameReference?
    /// While pending: the frame it waits for.
    var dependency: FrameReference?
    /// While building: the instance the body registered with `*~>`, boxed like a stored instance.
    var inFlight: AnyObject?
    /// The finished instance, while pending, and once published (except a weak singleton's).
    var object: AnyObject?
    /// A published weak singleton's instance.
    weak var weakObject: AnyObject?
    /// While building: the definitions from the building thread's outermost read to this one, for
    /// the message of a thread that waits for it too long.
    var chain: BuildChain?
    /// Threads waiting for it, and tasks (see ``ResolverThread/isTask``).
    var waitingThreads: [ResolverThread] = []
    /// Tasks waiting for it, suspended: resumed when it is published, given up or changes hands.
    var taskWaiters: [SingletonStore.TaskWaiter] = []
    /// Whether ``Assembly/reset(_:)`` dropped it while it was being built: once finished, it is
    /// disposed of instead of published.
    var isDropped = false

    init(key: DefinitionKey, scope: Scope) {
        storedKey = StoredKey(key)
        self.scope = scope
    }

    /// The published instance, unless it is a weak singleton that has been released.
    var publishedObject: AnyObject? {
        object ?? weakObject
    }
}
