/// A family's shutdown, as a state machine: the first call of ``Assembly/shutDown()`` shuts the
/// family down; a call made meanwhile waits for it (each of its `Waiter`s is resumed once); a call
/// made afterwards returns at once. Its events return what the caller does; they run under the
/// family's lock, and the tests drive them without tasks.
enum FamilyShutdown<Waiter> {
    /// Not shut down.
    case running
    /// A call is shutting the family down; `waiters` are calls waiting for it.
    case shuttingDown(waiters: [Waiter])
    /// Shut down: every instance that declared a shutdown has been shut down.
    case shutDown

    /// What a call of `shutDown()` does.
    enum Call: Equatable {
        /// Shut the family down: this is the first call.
        case shutDown
        /// Wait for the call that is shutting it down (see ``wait(_:)``).
        case waitForTheFirstCall
        /// Nothing: the family is shut down.
        case returnAtOnce
    }

    /// A call of `shutDown()` begins.
    mutating func call() -> Call {
        switch self {
        case .running:
            self = .shuttingDown(waiters: [])
            return .shutDown
        case .shuttingDown: return .waitForTheFirstCall
        case .shutDown: return .returnAtOnce
        }
    }

    /// A call told to wait parks `waiter`; false when the first call has finished meanwhile, and
    /// there is nothing to wait for.
    mutating func wait(_ waiter: Waiter) -> Bool {
        guard case .shuttingDown(var waiters) = self else { return false }
        waiters.append(waiter)
        self = .shuttingDown(waiters: waiters)
        return true
    }

    /// The first call has shut the family down: the waiters to resume.
    mutating func finish() -> [Waiter] {
        guard case .shuttingDown(let waiters) = self else {
            preconditionFailure("Assemblies: a family finished a shutdown it hadn't begun")
        }
        self = .shutDown
        return waiters
    }
}
