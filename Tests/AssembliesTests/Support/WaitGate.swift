import Testing

@testable import Assemblies

/// Blocks until another thread or task waits for the stored definition `member` of `assembly`'s
/// family: the gate a test uses to set up "the other reader waits for it now", where a sleep would
/// only hope so. Records an issue if nobody does within `seconds`.
func untilSomeoneWaits(for assembly: Assembly, _ member: String, within seconds: Double = 20) {
    if !assembly.family.singletons.awaitWaiter(member: member, within: seconds) {
        Issue.record("nobody waited for \(type(of: assembly)).\(member) within \(seconds) s")
    }
}

/// The gate of an async test: it looks again after each `Task.yield()` rather than blocking a
/// thread of the concurrency pool, which the task it waits for may need.
func untilSomeoneWaits(for assembly: Assembly, _ member: String, within seconds: Double = 20) async {
    if !(await until(within: seconds) { assembly.family.singletons.awaitWaiter(member: member, within: 0) }) {
        Issue.record("nobody waited for \(type(of: assembly)).\(member) within \(seconds) s")
    }
}

/// Yields until `condition` holds, at most `seconds`: false if it never did. The gate of an async
/// test that waits for a state the code under test reaches, without blocking a thread.
func until(within seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        await Task.yield()
    }
    return true
}
