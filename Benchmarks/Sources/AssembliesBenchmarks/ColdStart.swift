// The first read of a process: each measurement runs in a new process of this program
// (`--cold-start WHAT`), which times one thing and prints the nanoseconds it took and the page
// faults the process took meanwhile.

import Assemblies
import Foundation
import Swinject

enum ColdStart {
    /// What a child process times.
    enum What: String, CaseIterable {
        /// Creating the first assembly of the process.
        case assembly
        /// The first read of the 1,000-node graph, hand-written.
        case handWritten = "graph-hand"
        /// The same with Assemblies, the assembly made first, untimed.
        case assemblies = "graph-assemblies"
        /// The same with Swinject, its container made first, untimed.
        case swinject = "graph-swinject"
    }

    /// Times `what` in this process, which has done nothing else, prints the nanoseconds and the page
    /// faults, and exits.
    static func child(_ what: What) -> Never {
        let nanoseconds: UInt64
        let faults: Int
        switch what {
        case .assembly:
            let start = Start()
            let assembly = Scaling1000Assembly()
            (nanoseconds, faults) = start.elapsed()
            blackHole(assembly)
        case .handWritten:
            let start = Start()
            let root = HandWrittenScaling.graph1000()
            (nanoseconds, faults) = start.elapsed()
            blackHole(root)
        case .assemblies:
            let assembly = Scaling1000Assembly()
            let start = Start()
            let root = assembly.n0
            (nanoseconds, faults) = start.elapsed()
            blackHole(root)
        case .swinject:
            let container = SwinjectScaling.graph1000Container()
            let start = Start()
            let root = container.resolve(Node.self, name: "n0")
            (nanoseconds, faults) = start.elapsed()
            blackHole(root)
        }
        print(nanoseconds, faults)
        exit(0)
    }

    /// The clock and the process's page faults (minor: pages touched for the first time, of memory or
    /// of the program's code) when a timed region starts. A fault costs about a microsecond or two: the
    /// memory a first read touches is much of what it costs.
    private struct Start {
        let nanoseconds = monotonicNanoseconds()
        let faults = Start.pageFaults()

        func elapsed() -> (nanoseconds: UInt64, faults: Int) {
            let end = monotonicNanoseconds()
            return (end - nanoseconds, Start.pageFaults() - faults)
        }

        static func pageFaults() -> Int {
            var usage = rusage()
            // RUSAGE_SELF, which is 0 on Linux and Apple platforms (Glibc imports it as an enum).
            getrusage(0, &usage)
            return usage.ru_minflt
        }
    }

    /// Microseconds each of `whats` took in each of `runs` new processes, and the page faults each
    /// took meanwhile, by `what`. The processes run in rounds of one process of each, in a shuffled
    /// order, so that a slow moment of a noisy machine hits them alike.
    static func measure(_ whats: [What], runs: Int) -> [What: [(microseconds: Double, faults: Double)]] {
        var results: [What: [(microseconds: Double, faults: Double)]] = [:]
        for _ in 0..<runs {
            for what in whats.shuffled() {
                results[what, default: []].append(measureOnce(what))
            }
        }
        return results
    }

    /// The microseconds and page faults of `what` in one new process.
    private static func measureOnce(_ what: What) -> (microseconds: Double, faults: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--cold-start", what.rawValue]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            semanticCheckFailed("cold start", what.rawValue, "the program could not start itself: \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let numbers = text.split(separator: " ").compactMap { Double($0) }
        guard process.terminationStatus == 0, numbers.count == 2 else {
            semanticCheckFailed("cold start", what.rawValue, "a child process printed \(text)")
        }
        return (numbers[0] / 1_000, numbers[1])
    }
}
