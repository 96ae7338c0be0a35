#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Where the library's warnings go: standard error, unless the current task routes them to a
/// handler of its own.
///
/// Every warning — a captive dependency, a value read back in flight, an unused override, a long
/// wait — is written through ``write(_:)``, which looks for a handler only then: warnings are rare,
/// and no read path pays for this. The handler is task-local, so that tests running in parallel
/// each capture their own warnings; a thread that is not part of a task sees the handler only when
/// it binds one itself (`WarningOutput.$handler.withValue(handler) { ... }`).
///
/// One warning can't be routed this way: a task's long wait for another task's singleton is
/// reported by a detached task, which sees no task-local value, so it always goes to standard
/// error.
package enum WarningOutput {
    /// What receives the warnings written in this task and its child tasks: each as one line,
    /// `Assemblies: warning: …`, without a line break. Nil, the default: standard error.
    @TaskLocal package static var handler: (@Sendable (_ line: String) -> Void)?

    /// Writes `message` as one warning line, to the current task's handler or standard error.
    static func write(_ message: String) {
        let line = "Assemblies: warning: \(message)"
        if let handler {
            handler(line)
        } else {
            writeToStandardError(line + "\n")
        }
    }
}

/// Writes `text` to standard error in one call, so that two threads' lines don't interleave.
func writeToStandardError(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
