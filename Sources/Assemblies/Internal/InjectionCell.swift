/// What a property wrapper holds: its key path, and what it resolved — the `Value` the key path
/// reads, or for ``WeaklyInjected`` a weak reference to it — which it resolves once however many
/// threads read it first.
///
/// The first reader resolves with no lock held — resolving runs definition bodies. Readers on other
/// threads wait for it; a read on the resolving thread itself (the resolution reads the property
/// it is resolving) stops with a message, since the value doesn't exist yet. A reader waits in the
/// one wait loop (``ResolverThread/wait(until:)``), and warns once if it waits long.
final class InjectionCell<Root: Assembly, Value, Stored>: @unchecked Sendable {
    // @unchecked: `state` is only touched while holding `lock`; the key path is immutable. What it
    // stores reaches another thread only through a wrapper that is `Sendable`, which needs
    // `Value: Sendable`.
    let keyPath: KeyPath<Root, Value>
    private let lock = Lock()
    private var state = State.unresolved

    private enum State {
        case unresolved
        /// `thread` resolves it; `waiters` wait for it, each woken once when the state changes.
        case resolving(thread: ResolverThread, waiters: [ResolverThread])
        case resolved(Stored)
    }

    /// What a look at the state tells a reader to do.
    private enum Next {
        case take(Stored)
        case resolve
        case stop
    }

    init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
    }

    /// What was resolved, or else what `resolve` returns, kept unless it is `nil` (the next read
    /// then tries again). `wrapper` names the property wrapper in messages.
    func value(wrapper: String, resolving resolve: () -> Stored?) -> Stored? {
        if let resolved = lock.withLock({ () -> Stored?? in
            guard case .resolved(let value) = state else { return nil }
            return value
        }) {
            return resolved
        }
        // The thread's own record even when a task's graph is installed here: a read of the property
        // made below its own resolution, in a task's joined graph, is still this thread's.
        let thread = Resolver.threadRecord
        let next = thread.wait { () -> ResolverThread.WaitStep<Next> in
            lock.withLock {
                switch state {
                case .resolved(let value):
                    return .done(.take(value))
                case .resolving(let owner, _) where owner === thread:
                    return .done(.stop)
                case .resolving(let owner, var waiters):
                    _ = WaitRegistry.parker(of: thread)  // before it can be woken
                    if !waiters.contains(where: { $0 === thread }) { waiters.append(thread) }
                    state = .resolving(thread: owner, waiters: waiters)
                    return .waiting {
                        "a thread has waited \(WaitWarning.delay) s for @\(wrapper)(\\\(Root.self).…) as "
                            + "\(Value.self), which another thread is resolving; it goes on waiting."
                    }
                case .unresolved:
                    state = .resolving(thread: thread, waiters: [])
                    return .done(.resolve)
                }
            }
        }
        switch next {
        case .take(let value):
            return value
        case .stop:
            Failure.injectionReadWhileResolving(Root.self, Value.self, wrapper: wrapper)
        case .resolve:
            let resolved = resolve()
            lock.withLock {
                // Unless `set` or `reset` replaced the state meanwhile, and woke the waiters.
                guard case .resolving(let owner, let waiters) = state, owner === thread else { return }
                state = resolved.map { .resolved($0) } ?? .unresolved
                WaitRegistry.wake(waiters)
            }
            return resolved
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
            defer { state = new }
            if case .resolving(_, let waiters) = state {
                WaitRegistry.wake(waiters)
            }
            return state
        }
        _ = replaced  // released here, outside the lock: its deinit may run user code
    }
}
