/// How a root's read on a ``WiringLane`` ended.
enum LaneReadEnding: @unchecked Sendable {
    // @unchecked: the error is handed from the lane's thread to the check once, and only read there.
    case returned
    case threw(any Error)
    /// Stopped with `message`: the lane's thread is parked for good.
    case misused(message: String)

    /// How `body` ended, run in a task on a lane of its own, where a misuse is reported (see
    /// ``WiringLane``) — or in the calling task, where a misuse stops the program, before macOS 15,
    /// iOS 18, tvOS 18, watchOS 11 and visionOS 2.
    static func running(_ body: @escaping @Sendable () async throws -> Void) async -> LaneReadEnding {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return await WiringLane.run(body)
        }
        do {
            try await body()
            return .returned
        } catch {
            return .threw(error)
        }
    }
}

/// How a root's read on a ``WiringLane`` ends, as a state machine: the check waits for the ending
/// (its `Waiter` is resumed once), and the read ends once — it returns, throws, or misuses the
/// library (``Failure/stop(_:file:line:)`` on the lane's thread). Its events return what the caller
/// does; they run under the lane's lock, and the tests drive them without threads.
enum LaneRead<Waiter> {
    /// The read runs; `waiter` is the check, once it waits.
    case running(waiter: Waiter?)
    /// The read ended before the check waited.
    case ended(Ending)
    /// The check has the ending; a misuse now comes from work the read left behind.
    case reported

    typealias Ending = LaneReadEnding

    /// The check waits for the ending: returns it when the read has ended already (the check doesn't
    /// wait), else keeps `waiter`, to be resumed by ``end(_:)``.
    mutating func wait(_ waiter: Waiter) -> Ending? {
        switch self {
        case .running:
            self = .running(waiter: waiter)
            return nil
        case .ended(let ending):
            self = .reported
            return ending
        case .reported:
            preconditionFailure("Assemblies: a wiring check waited twice for one read")
        }
    }

    /// What ``end(_:)`` tells the lane to do.
    enum Action {
        /// Resume the check with the ending.
        case resume(Waiter, Ending)
        /// Nothing: the check will find the ending when it waits.
        case none
        /// The caller has its ending already: a misuse now — in another child task of a read that
        /// stopped, say — has no one to go to, and is printed as a warning.
        case print
    }

    /// The read ended with `ending`; only its first ending counts.
    mutating func end(_ ending: Ending) -> Action {
        switch self {
        case .running(let waiter?):
            self = .reported
            return .resume(waiter, ending)
        case .running(nil):
            self = .ended(ending)
            return .none
        case .ended, .reported:
            return .print
        }
    }
}
