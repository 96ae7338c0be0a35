/// What reads of a family built while a block of code ran, with the time each body took, recorded
/// by ``Assembly/buildReport(of:)``: the table to read to cut start-up time.
///
/// ```swift
/// let report = app.buildReport { app.activate() }
/// print(report)
/// ```
///
/// ```
/// Built 4 instances in 212.40 ms; own time of each body, slowest first:
///     own ms   total ms  scope          definition
///     180.12     180.12  singleton      AppAssembly.database
///      20.03     212.40  singleton      AppAssembly.api
///      ...
/// ```
public struct BuildReport: Sendable, CustomStringConvertible {
    /// One instance a body built.
    public struct Row: Sendable {
        /// Its place in the order bodies started, from 1.
        public let order: Int
        public let definition: DefinitionName
        public let scope: Scope
        /// The argument values it was read with, as Swift writes them.
        public let arguments: [String]
        /// How long its body ran, in nanoseconds, including the bodies of what it read...
        public let nanoseconds: UInt64
        /// ... and leaving them out: the time to cut.
        public let ownNanoseconds: UInt64
    }

    /// What was built, in the order the bodies started.
    public let rows: [Row]

    init(_ resolutions: [Resolution]) {
        let built = resolutions.filter { $0.source == .built }.sorted { $0.sequence < $1.sequence }
        rows = built.enumerated().map { index, read in
            Row(
                order: index + 1,
                definition: read.definition,
                scope: read.scope,
                arguments: read.arguments,
                nanoseconds: read.nanoseconds,
                ownNanoseconds: read.ownNanoseconds
            )
        }
    }

    /// The rows, the longest own time first.
    public var slowestFirst: [Row] {
        rows.sorted {
            $0.ownNanoseconds != $1.ownNanoseconds ? $0.ownNanoseconds > $1.ownNanoseconds : $0.order < $1.order
        }
    }

    /// The time of every body, counted once: the sum of their own times.
    public var totalNanoseconds: UInt64 {
        rows.reduce(0) { $0 + $1.ownNanoseconds }
    }

    /// The table: a line per instance, the slowest first.
    public var description: String {
        var lines = [
            "Built \(rows.count) instance\(rows.count == 1 ? "" : "s") in \(Resolution.milliseconds(totalNanoseconds)); own time of each body, slowest first:",
            "    own ms   total ms  scope          definition",
        ]
        for row in slowestFirst {
            var definition = row.definition.description
            if !row.arguments.isEmpty { definition += " (\(row.arguments.joined(separator: ", ")))" }
            lines.append(
                "  \(Self.column(row.ownNanoseconds))  \(Self.column(row.nanoseconds))  \(Self.padded("\(row.scope)", 13))  \(definition)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Milliseconds with two decimals, right-aligned in 9 columns.
    static func column(_ nanoseconds: UInt64) -> String {
        let text = String(Resolution.milliseconds(nanoseconds).dropLast(3))
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
