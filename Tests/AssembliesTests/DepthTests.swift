import Assemblies
import Foundation
import Testing

// Graphs nested very deeply: they resolve while the thread's stack lasts, and stop with a message
// — never a crash — before it runs out.

private final class Level {
    let depth: Int
    let next: Level?
    init(depth: Int, next: Level?) {
        self.depth = depth
        self.next = next
    }
}

private final class DepthAssembly: Assembly, @unchecked Sendable {
    /// A finite recursion: `levels` deep.
    func level(_ depth: Int, of levels: Int) -> Level {
        define(scope: .prototype, arguments: depth, levels) {
            Level(depth: depth, next: depth + 1 < levels ? self.level(depth + 1, of: levels) : nil)
        }
    }

    /// A recursion that never ends: every call has a new argument, so it is never a cycle.
    func endless(_ depth: Int) -> Level {
        define(arguments: depth) { Level(depth: depth, next: self.endless(depth + 1)) }
    }

    var entry: Level { define { self.endless(0) } }

    /// The endless recursion, read in an async body: its synchronous reads join the task's graph,
    /// on the stack of whichever thread the task runs on.
    var asyncEntry: Level {
        get async {
            await define { () async -> Level in
                await Task.yield()
                return self.endless(0)
            }
        }
    }

    /// A definition for a test to override, so that the family's graphs are overridden graphs.
    var unrelated: Level { define { Level(depth: -1, next: nil) } }
}

/// How an endless recursion is read: plainly, while the family is observed, or while a test's
/// overrides apply to it.
enum ReadMode: String, CaseIterable, Codable, Sendable {
    case plain, observed, overridden
}

private struct IgnoreResolutions: ResolutionObserver {
    func didResolve(_ resolution: Resolution) {}
}

@Suite struct DepthTests {
    @Test func aDeepFiniteGraphResolves() {
        let assembly = DepthAssembly()
        nonisolated(unsafe) var deepest = 0
        let finished = finishes(within: 120, stackSize: 64 << 20) {
            var level: Level? = assembly.level(0, of: 2_000)
            while let current = level {
                deepest = current.depth
                level = current.next
            }
        }
        #expect(finished)
        #expect(deepest == 1_999)
    }

    @Test func anEndlessRecursionStopsWithAMessageOnASmallStack() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = finishes(stackSize: 512 << 10) { _ = DepthAssembly().entry }
        }
        let message = stderr(of: result)
        #expect(message.contains("definitions deep, and the thread's stack is nearly used up"))
        #expect(message.contains("it began with DepthAssembly.entry"))
        #expect(message.contains("DepthAssembly.endless(_:) was read"))
        #expect(message.contains("recursion through a method with arguments"))
    }

    /// The stop's message is built and printed near the end of a small stack too: in a debug build,
    /// where nothing is inlined and frames are large, in each way a read can be made.
    @Test(arguments: [64, 128, 256], ReadMode.allCases)
    func anEndlessRecursionStopsWithAMessageOnAThreadOfKibibytes(_ kibibytes: Int, _ mode: ReadMode) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [kibibytes, mode] in
            stopsAfter(seconds: 60)
            let assembly = DepthAssembly()
            _ = finishes(within: 60, stackSize: kibibytes << 10) {
                switch mode {
                case .plain:
                    _ = assembly.entry
                case .observed:
                    assembly.observeResolutions(with: IgnoreResolutions())
                    _ = assembly.entry
                case .overridden:
                    let overrides = Overrides(of: assembly)
                    overrides.replace(\.unrelated, whenUnused: .ignore) { Level(depth: -2, next: nil) }
                    overrides.apply { _ = assembly.entry }
                }
            }
            exit(0)
        }
        let message = stderr(of: result)
        #expect(result?.exitStatus != .exitCode(0), "the recursion ended")
        #expect(message.contains("definitions deep, and the thread's stack is nearly used up"), "\(message)")
        #expect(message.contains("it began with DepthAssembly.entry"), "\(message)")
    }

    @Test func anEndlessRecursionInAnAsyncBodyStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 60)
            _ = await DepthAssembly().asyncEntry
            exit(0)
        }
        let message = stderr(of: result)
        #expect(result?.exitStatus != .exitCode(0), "the recursion ended")
        #expect(message.contains("definitions deep, and the thread's stack is nearly used up"), "\(message)")
        #expect(message.contains("it began with DepthAssembly.asyncEntry"), "\(message)")
    }

    @Test func anEndlessRecursionStopsWithAMessageOnALargeStack() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = finishes(stackSize: 8 << 20) { _ = DepthAssembly().endless(0) }
        }
        let message = stderr(of: result)
        #expect(message.contains("definitions deep, and the thread's stack is nearly used up"))
        #expect(message.contains("it began with DepthAssembly.endless(_:) (0)"))
    }
}
