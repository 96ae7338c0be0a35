/// What a ``WiringCheck`` running in the current task has found so far. While one runs, the family
/// watches the stored definitions it builds for captive dependencies whatever its mode, and hands
/// those it finds here instead of doing what its mode says (see ``Family/report(_:)``).
final class WiringFindings: Sendable {
    /// The check running in this task, if any.
    @TaskLocal static var current: WiringFindings?

    private let problems = Locked<[WiringReport.Problem]>([])

    func add(_ problem: WiringReport.Problem) {
        problems.withLock { $0.append(problem) }
    }

    var all: [WiringReport.Problem] { problems.withLock { $0 } }
}
