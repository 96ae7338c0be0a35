/// A ``ResolutionObserver`` that writes each top-level read as an indented tree of the reads it
/// made, once it has returned.
///
/// ```swift
/// app.observeResolutions(with: ResolutionLog())
/// _ = app.cafe
/// ```
///
/// prints to standard error:
///
/// ```
/// Assemblies: thread 1 ("main")
///   AppAssembly.cafe (objectGraph) built in 0.05 ms (own 0.02 ms)
///     AppAssembly.barista (objectGraph) built in 0.02 ms (own 0.02 ms)
///     AppAssembly.logger (singleton) reused from the store
/// ```
///
/// Pass `write` to send the lines elsewhere — a `Logger`, a test's buffer. It is called once per
/// top-level read, with every line of it, on the thread that made the read.
public struct ResolutionLog: ResolutionObserver {
    private let output: @Sendable (String) -> Void
    private let pending = Locked<[Int: [Resolution]]>([:])

    /// A log that hands each top-level read's lines to `write`; by default, standard error.
    public init(write: @escaping @Sendable (_ lines: String) -> Void = ResolutionLog.writeToStandardError) {
        output = write
    }

    public func didResolve(_ resolution: Resolution) {
        // A thread's reads arrive innermost first; its top-level read comes last.
        // The tree of a top-level read is the reads that started after it: a read of the family made
        // from another family's body, in a graph of its own, is a tree of its own.
        let tree: [Resolution]? = pending.withLock { pending in
            pending[resolution.threadNumber, default: []].append(resolution)
            guard resolution.depth == 0, let reads = pending[resolution.threadNumber] else { return nil }
            let tree = reads.filter { $0.sequence >= resolution.sequence }
            let rest = reads.filter { $0.sequence < resolution.sequence }
            pending[resolution.threadNumber] = rest.isEmpty ? nil : rest
            return tree
        }
        guard let tree else { return }
        let thread = ResolverThread.describe(number: resolution.threadNumber, name: resolution.threadName)
        var lines = ["Assemblies: \(thread)"]
        for read in tree.sorted(by: { $0.sequence < $1.sequence }) {
            lines.append(String(repeating: "  ", count: read.depth + 1) + read.description)
        }
        output(lines.joined(separator: "\n"))
    }

    /// Writes `lines` and a line break to standard error in one call.
    public static func writeToStandardError(_ lines: String) {
        Assemblies.writeToStandardError(lines + "\n")
    }
}
