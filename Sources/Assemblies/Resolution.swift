/// One read of a definition, as a ``ResolutionObserver`` sees it once the read has returned.
///
/// ```
/// AppAssembly.cafe (singleton) built in 1.20 ms (own 0.31 ms)
/// ```
///
/// The times are those of the definition's body, so a read that reused an instance took none; a
/// body's own time leaves out the bodies of the definitions it read.
public struct Resolution: Sendable, CustomStringConvertible {
    /// Where the instance a read returned came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The read ran the definition's body.
        case built
        /// The instance was built earlier in the same object graph.
        case objectGraph
        /// The instance was still being built: a back-reference that closes a cycle, or a
        /// singleton that another thread (or graph) was building.
        case inFlight
        /// The instance of a singleton, weak singleton or resettable scope, built before.
        case stored
        /// The definition's body threw: the read returned no instance.
        case failed

        /// `built`, `reused from the object graph`, `reused in flight`, `reused from the store` or
        /// `failed`.
        public var description: String {
            switch self {
            case .built: "built"
            case .objectGraph: "reused from the object graph"
            case .inFlight: "reused in flight"
            case .stored: "reused from the store"
            case .failed: "failed"
            }
        }
    }

    /// The definition that was read.
    public var definition: DefinitionName { DefinitionName(key.key) }
    /// The scope it was read in (an override's scope, when a task overrides it).
    public let scope: Scope
    /// The name of the type the definition returns: `Cafe`.
    public var type: String { String(describing: key.key.type) }
    /// The values of its arguments, as Swift writes them (`"Lancelot"`), for a method that takes
    /// some; else empty.
    public var arguments: [String] { key.key.arguments?.valueDescriptions ?? [] }
    /// How many reads of the same graph it is nested in: 0 for a top-level read.
    public let depth: Int
    /// The definition whose body made this read, or nil for a top-level read.
    public var parent: DefinitionName? { parentKey.map(DefinitionName.init) }
    /// Whether the body ran, or where the instance came from.
    public let source: Source
    /// The object the read returned, for a class instance; nil for a value, or when the body threw.
    public let instance: ObjectIdentifier?
    /// How long the body ran, including the bodies of what it read, in nanoseconds; 0 when the read
    /// reused an instance. Hooks that run after the body returned don't count.
    public let nanoseconds: UInt64
    /// How long the body ran, leaving out the bodies of what it read, in nanoseconds.
    public let ownNanoseconds: UInt64
    /// The thread that made the read: a number in the order threads first resolved something, and
    /// its name (empty when it has none).
    public let threadNumber: Int
    public let threadName: String

    /// The definition read, and its parent's: the names and argument texts above are made from them
    /// only when asked for, so that an observer that looks at little costs little. `key` keeps the
    /// argument values alive for as long as the resolution is kept; `parentKey` has none (only the
    /// parent's name is made from it), so that it is trivial to copy and to drop.
    let key: StoredKey
    let parentKey: DefinitionKey?

    /// The read's number among the reported reads of the process, on every thread and task, in the
    /// order they started: to rebuild the tree of a top-level read, whose reads arrive innermost
    /// first.
    public let sequence: UInt64
    /// The ``sequence`` of the read whose body made this one, or nil for a top-level read.
    public let parentSequence: UInt64?

    /// One line: `AppAssembly.cafe (singleton) built in 1.20 ms (own 0.31 ms)`, with the
    /// arguments after the definition.
    public var description: String {
        var line = definition.description
        if !arguments.isEmpty { line += " (\(arguments.joined(separator: ", ")))" }
        line += " (\(scope)) \(source)"
        if source == .built || source == .failed && nanoseconds > 0 {
            line += " in \(Self.milliseconds(nanoseconds)) (own \(Self.milliseconds(ownNanoseconds)))"
        }
        return line
    }

    /// `1.20 ms`.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}

/// Receives every read of the definitions of a family it is given to with
/// ``Assembly/observeResolutions(with:)``.
///
/// ```swift
/// struct SlowReads: ResolutionObserver {
///     func didResolve(_ resolution: Resolution) {
///         if resolution.ownNanoseconds > 10_000_000 { print("slow:", resolution) }
///     }
/// }
///
/// app.observeResolutions(with: SlowReads())
/// ```
///
/// It is called on the thread that made the read, as each read returns — so the reads a body made
/// arrive before that body's own — and while the graph of a nested read is still being built: keep
/// it short. Reads it makes of any family run in graphs of their own and are not reported. A read
/// whose body throws is reported too, as ``Resolution/Source/failed``. No lock of the library is
/// held.
public protocol ResolutionObserver: Sendable {
    /// Called once for every read of a definition of the observed family.
    func didResolve(_ resolution: Resolution)
}
