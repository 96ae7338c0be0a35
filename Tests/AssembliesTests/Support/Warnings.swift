import Assemblies

/// The warnings the library wrote while a test ran, captured instead of written to standard error.
final class CapturedWarnings: Sendable {
    private let lines = Guarded<[String]>([])

    /// Every warning line captured so far, `Assemblies: warning: …`, in the order they were written.
    var all: [String] { lines.withLock { $0 } }

    /// The captured warnings that contain `text`.
    func containing(_ text: String) -> [String] {
        all.filter { $0.contains(text) }
    }

    /// Runs `body` with the warnings of this task, its child tasks and the threads that
    /// `onThreads` and `finishes` start captured here.
    func capture<Result>(_ body: () throws -> Result) rethrows -> Result {
        try WarningOutput.$handler.withValue(record, operation: body)
    }

    /// Runs `body` with the warnings of this task and its child tasks captured here.
    func capture<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await WarningOutput.$handler.withValue(record, operation: body, isolation: isolation)
    }

    private var record: @Sendable (String) -> Void {
        { [lines] line in lines.withLock { $0.append(line) } }
    }
}

/// Runs `body` on this thread with the warning handler of the task or thread that called this one
/// (the handler a `CapturedWarnings` installed, if any): threads don't inherit task-local values.
func withWarningHandler(
    _ handler: (@Sendable (String) -> Void)?,
    _ body: () -> Void
) {
    WarningOutput.$handler.withValue(handler, operation: body)
}
