/// What a property wrapper holds: its key path, and what it resolved — the `Value` the key path
/// reads, or for ``WeaklyInjected`` a weak reference to it — which it resolves once however many
/// threads read it first.
///
/// The first reader resolves with no lock held — resolving runs definition bodies. Readers on other
/// threads wait for it; a read on the resolving thread itself (the resolution reads the property
/// it is resolving) stops with a message, since the value doesn't exist yet. A reader that waits
/// long warns once, as a thread waiting for a singleton does (``WaitWarning``).
final class InjectionCell<Root: Assembly, Value, Stored>: @unchecked Sendable {
    // @unchecked: `state` is only touched while holding `lock`; the key path is immutable. What it
    // stores reaches another thread only through a wrapper that is `Sendable`, which needs
    // `Value: Sendable`.
    let keyPath: KeyPath<Root, Value>
    private let lock = Lock()
    private let changed = Condition()
    private var state = State.unresolved

    private enum State {
        case unresolved
        case resolving(thread: ObjectIdentifier)
        case resolved(Stored)
    }

    init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
    }

    /// What was resolved, or else what `resolve` returns, kept unless it is `nil` (the next read
    /// then tries again). `wrapper` names the property wrapper in messages.
    func value(wrapper: String, resolving resolve: () -> Stored?) -> Stored? {
        let thread = Resolver.withCurrent { ObjectIdentifier($0.thread) }
        lock.lock()
        var started: Double?
        var warned = false
        while true {
            switch state {
            case .resolved(let value):
                lock.unlock()
                return value
            case .resolving(let owner) where owner == thread:
                lock.unlock()
                Failure.injectionReadWhileResolving(Root.self, Value.self, wrapper: wrapper)
            case .resolving:
                let now = Clock.seconds()
                let remaining = WaitWarning.delay - (now - (started ?? now))
                started = started ?? now
                if warned || remaining > 0 {
                    changed.wait(releasing: lock, seconds: warned ? nil : remaining)
                } else {
                    warned = true
                    WaitWarning.print(
                        "a thread has waited \(WaitWarning.delay) s for @\(wrapper)(\\\(Root.self).…) as "
                            + "\(Value.self), which another thread is resolving; it goes on waiting."
                    )
                }
            case .unresolved:
                state = .resolving(thread: thread)
                lock.unlock()
                let resolved = resolve()
                lock.withLock {
                    if case .resolving(thread) = state {
                        state = resolved.map { .resolved($0) } ?? .unresolved
                    }
                    changed.broadcast()
                }
                return resolved
            }
        }
    }

    /// Replaces what was resolved; a resolution in flight on another thread then keeps this one.
    func set(_ value: Stored) {
        replaceState(with: .resolved(value))
    }

    /// Forgets what was resolved: the next read resolves again.
    func reset() {
        replaceState(with: .unresolved)
    }

    private func replaceState(with new: State) {
        let replaced: State = lock.withLock {
            defer {
                state = new
                changed.broadcast()
            }
            return state
        }
        _ = replaced  // released here, outside the lock: its deinit may run user code
    }
}
