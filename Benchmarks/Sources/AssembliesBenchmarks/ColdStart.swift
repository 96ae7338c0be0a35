// The first read of a process: each measurement runs in a new process of this program
// (`--cold-start WHAT`), which times one thing and prints the nanoseconds it took.

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

    /// Times `what` in this process, which has done nothing else, prints the nanoseconds and exits.
    static func child(_ what: What) -> Never {
        let nanoseconds: UInt64
        switch what {
        case .assembly:
            let start = monotonicNanoseconds()
            let assembly = Scaling1000Assembly()
            nanoseconds = monotonicNanoseconds() - start
            blackHole(assembly)
        case .handWritten:
            let start = monotonicNanoseconds()
            let root = HandWrittenScaling.graph1000()
            nanoseconds = monotonicNanoseconds() - start
            blackHole(root)
        case .assemblies:
            let assembly = Scaling1000Assembly()
            let start = monotonicNanoseconds()
            let root = assembly.n0
            nanoseconds = monotonicNanoseconds() - start
            blackHole(root)
        case .swinject:
            let container = SwinjectScaling.graph1000Container()
            let start = monotonicNanoseconds()
            let root = container.resolve(Node.self, name: "n0")
            nanoseconds = monotonicNanoseconds() - start
            blackHole(root)
        }
        print(nanoseconds)
        exit(0)
    }

    /// Microseconds `what` took in each of `runs` new processes.
    static func measure(_ what: What, runs: Int) -> [Double] {
        (0..<runs).map { _ in
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
            guard process.terminationStatus == 0, let nanoseconds = Double(text) else {
                semanticCheckFailed("cold start", what.rawValue, "a child process printed \(text)")
            }
            return nanoseconds / 1_000
        }
    }
}
