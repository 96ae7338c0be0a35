/// Runs `body` in a task of its own and waits at most `seconds` for it: false when it didn't
/// finish, so that a task that never resumes fails the test instead of hanging the run. (A task that
/// never finishes is left behind.)
func completes(within seconds: Double = 20, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let outcome = Guarded<CheckedContinuation<Bool, Never>?>(nil)
    @Sendable func finish(_ finished: Bool) {
        outcome.withLock { continuation in
            continuation?.resume(returning: finished)
            continuation = nil
        }
    }
    return await withCheckedContinuation { continuation in
        outcome.withLock { $0 = continuation }
        Task {
            await body()
            finish(true)
        }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            finish(false)
        }
    }
}

/// A gate that tasks wait at until it is opened; opening it lets every waiter through at once.
final class Gate: Sendable {
    private let state = Guarded<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
