import Foundation
import Testing

@testable import Assemblies

// A task's async graph is found by its task, and once it has ended, the next top-level async read
// on the thread takes over its resolver's storage (its keys, buffers and caches). What users see
// must not change: each top-level read is a graph of its own, a child task never shares its
// parent's, and a Definition kept past its body still stops when it is used in a later graph.

private final class Part: @unchecked Sendable {}

private final class Remote: @unchecked Sendable {
    let part: Part
    init(part: Part) { self.part = part }
}

private final class Shared: @unchecked Sendable {}

private final class Root: @unchecked Sendable {
    let part: Part
    let remote: Remote
    let shared: Shared
    init(part: Part, remote: Remote, shared: Shared) {
        self.part = part
        self.remote = remote
        self.shared = shared
    }
}

private final class ReuseAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    nonisolated(unsafe) static var kept: Definition<Part>?

    var part: Part {
        define {
            counter.tick("part")
            return Part()
        }
    }

    var remote: Remote {
        get async {
            await define {
                await Task.yield()
                return Remote(part: self.part)
            }
        }
    }

    var shared: Shared {
        define(scope: .singleton) {
            counter.tick("shared")
            return Shared()
        }
    }

    var root: Root {
        get async { await define { Root(part: self.part, remote: await self.remote, shared: self.shared) } }
    }

    /// Starts a task that reads `part` twice, from a body, and waits at `gate` first: it runs after
    /// the read that started it has returned, and must open a graph of its own.
    func rootWithStraggler(reading gate: Gate, into parts: Guarded<[Part]>) async -> (Root, Task<Void, Never>) {
        nonisolated(unsafe) var straggler: Task<Void, Never>?
        let root = await define { () async -> Root in
            straggler = Task {
                await gate.wait()
                let first = await self.remoteTwice()
                parts.withLock { $0 = first }
            }
            return Root(part: self.part, remote: await self.remote, shared: self.shared)
        }
        return (root, straggler!)
    }

    /// Reads `part`, waits at `gate` with the graph open, and reads `part` again.
    func partsAcross(_ gate: Gate) async -> [Part] {
        await define { () async -> [Part] in
            let before = self.part
            await gate.wait()
            return [before, self.part]
        }
    }

    /// Two reads of `part` in one top-level async graph.
    func remoteTwice() async -> [Part] {
        await define { () async -> [Part] in [self.part, (await self.remote).part] }
    }

    var leaky: Part {
        get async {
            await define { (definition: Definition<Part>) async -> Part in
                await Task.yield()
                ReuseAssembly.kept = definition
                return definition *~> Part()
            }
        }
    }

    var usesTheKeptDefinition: Part {
        get async {
            await define { () async -> Part in
                await Task.yield()
                ReuseAssembly.kept?.initObject(Part())
                return Part()
            }
        }
    }
}

/// A family of its own whose async graph ReuseAssembly's opens inside its own.
private final class OtherAssembly: Assembly, @unchecked Sendable {
    struct Failed: Error {}

    var part: Part { define { Part() } }
    var failing: Part {
        get async throws {
            try await define { () async throws(Failed) -> Part in
                _ = self.part
                await Task.yield()
                throw Failed()
            }
        }
    }
    var remote: Remote {
        get async {
            await define {
                await Task.yield()
                let remote = Remote(part: self.part)
                #expect(remote.part === self.part, "the inner graph's own reads share it")
                return remote
            }
        }
    }
}

private final class CrossingAssembly: Assembly, @unchecked Sendable {
    let other = OtherAssembly()

    /// Reads `part`, then the other family's async member that throws, then `part` again.
    var partsAroundAFailure: [Part] {
        get async {
            await define { () async -> [Part] in
                let before = self.part
                _ = try? await self.other.failing
                return [before, self.part]
            }
        }
    }
    var part: Part { define { Part() } }
    /// Reads `part`, then the other family's async member, then `part` again.
    var parts: [Part] {
        get async {
            await define { () async -> [Part] in
                let before = self.part
                let remote = await self.other.remote
                return [before, self.part, remote.part]
            }
        }
    }
}

/// The way back to the family that reads a ``ReturningAssembly``.
private final class BackLink: @unchecked Sendable {
    weak var assembly: CrossingBackAssembly?
}

/// A family whose async body reads back, synchronously, the family whose async graph awaited it.
private final class ReturningAssembly: Assembly, @unchecked Sendable {
    let back = BackLink()

    var inner: Part {
        get async {
            await define {
                await Task.yield()
                let part = self.back.assembly!.part
                let taskResolverStaysInstalled = Resolver.withCurrent { $0.thread.isTask }
                #expect(
                    !taskResolverStaysInstalled,
                    "the read that crossed back left the task's resolver on the thread"
                )
                return part
            }
        }
    }
}

private final class CrossingBackAssembly: Assembly, @unchecked Sendable {
    let other = ReturningAssembly()

    required init() {
        super.init()
        other.back.assembly = self
    }

    var part: Part { define { Part() } }

    /// Reads `part`, then the other family's member that reads `part` back, then `part` again.
    var parts: [Part] {
        get async {
            await define { () async -> [Part] in
                let before = self.part
                let inner = await self.other.inner
                return [before, inner, self.part]
            }
        }
    }
}

@Suite("Async graphs: found by their task, their storage handed to the next", .timeLimit(.minutes(1)))
struct AsyncGraphReuseTests {
    /// Checks that each root is a graph of its own that shares only the singleton.
    private func expectGraphsOfTheirOwn(_ roots: [Root], _ assembly: ReuseAssembly) {
        for root in roots {
            #expect(root.part === root.remote.part)
            #expect(root.shared === roots[0].shared)
        }
        #expect(Set(roots.map { ObjectIdentifier($0.part) }).count == roots.count)
        #expect(assembly.counter["part"] == roots.count)
        #expect(assembly.counter["shared"] == 1)
    }

    @Test func topLevelReadsOneAfterAnotherInOneTaskAreGraphsOfTheirOwn() async {
        let assembly = ReuseAssembly()
        var roots: [Root] = []
        for _ in 0..<200 {
            roots.append(await assembly.root)
        }
        expectGraphsOfTheirOwn(roots, assembly)
    }

    @Test func aGraphThatEndsLeavesItsKeysToTheNextOneOnItsThread() async {
        let assembly = ReuseAssembly()
        let before = Resolver.graphsServed.value
        for _ in 0..<50 {
            _ = await assembly.root
        }
        #expect(Resolver.graphsServed.value > before, "no resolver served a graph after the one before")
    }

    @Test func aGraphThatEndsLeavesItsTasksRecordToTheNextOne() async {
        let assembly = ReuseAssembly()
        let before = ResolverThread.restarts.value
        for _ in 0..<50 {
            _ = await assembly.root
        }
        #expect(ResolverThread.restarts.value > before, "no task's record served the task of a later graph")
    }

    @Test func aTasksRecordThatSomethingElseHoldsIsNotGivenToAnotherTask() async {
        let assembly = ReuseAssembly()
        // What a thread that took an instance from the task would hold: its record, past the graph.
        let held = await assembly.define { () async -> ResolverThread in
            AsyncGraph.ofCurrentTask()!.resolver.thread
        }
        let number = held.number
        for _ in 0..<50 {
            _ = await assembly.root
            #expect(!held.isCurrentTask, "a record held elsewhere became the record of a later graph")
        }
        #expect(held.number == number)
    }

    @Test func anOverriddenGraphAfterPlainOnesOnTheSameThreadIsOverridden() async {
        let assembly = ReuseAssembly()
        for _ in 0..<10 {
            _ = await assembly.root
        }
        let replacement = Part()
        let overrides = Overrides(of: assembly)
        overrides.replace(\.part) { replacement }
        await overrides.apply {
            for _ in 0..<10 {
                let root = await assembly.root
                #expect(root.part === replacement)
                #expect(root.remote.part === replacement)
            }
        }
        let root = await assembly.root
        #expect(root.part !== replacement)
    }

    @Test func topLevelReadsOfManyTasksAreGraphsOfTheirOwn() async {
        let assembly = ReuseAssembly()
        let roots = await withTaskGroup(of: [Root].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var roots: [Root] = []
                    for _ in 0..<50 { roots.append(await assembly.root) }
                    return roots
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(roots.count == 400)
        expectGraphsOfTheirOwn(roots, assembly)
    }

    @Test func aTaskCarryingAnEndedGraphOpensItsOwn() async {
        let assembly = ReuseAssembly()
        let gate = Gate()
        let parts = Guarded<[Part]>([])
        let (first, straggler) = await assembly.rootWithStraggler(reading: gate, into: parts)
        // Later graphs on this thread, while the straggler still carries the first one.
        var roots = [first]
        for _ in 0..<20 { roots.append(await assembly.root) }
        gate.open()
        await straggler.value
        let straggled = parts.withLock { $0 }
        #expect(straggled.count == 2)
        #expect(straggled[0] === straggled[1], "the straggler's two reads were one graph")
        #expect(!roots.contains { $0.part === straggled[0] }, "the straggler shared a graph that had ended")
        #expect(assembly.counter["part"] == 22)
    }

    @Test func aGraphWhoseReadThrewLeavesTheNextOneWhole() async {
        struct Failed: Error {}
        let assembly = ReuseAssembly()
        for _ in 0..<10 {
            await #expect(throws: Failed.self) {
                try await assembly.define { () async throws(Failed) -> Part in
                    _ = assembly.part
                    throw Failed()
                }
            }
            let root = await assembly.root
            #expect(root.part === root.remote.part)
        }
    }

    @Test func aGraphOfAnotherFamilyOpenedInsideGivesTheOuterOneBackToItsTask() async {
        let assembly = CrossingAssembly()
        for _ in 0..<20 {
            let parts = await assembly.parts
            #expect(parts[0] === parts[1], "the outer graph was lost while the inner one was open")
            #expect(parts[2] !== parts[0])
        }
    }

    /// The inner family's body reads the outer one synchronously: a read that crosses back, in a
    /// graph of its own, as on a thread; once it has returned, the thread runs on its own resolver
    /// again (a task's left installed would serve other tasks' reads on the thread).
    @Test func aReadThatCrossesBackFromAnInnerFamilysAsyncBodyLeavesTheThreadAsItFoundIt() async {
        let assembly = CrossingBackAssembly()
        for _ in 0..<20 {
            let parts = await assembly.parts
            #expect(parts[0] === parts[2], "the outer graph was lost")
            #expect(parts[1] !== parts[0], "a read that crosses back is a graph of its own")
        }
    }

    @Test func aGraphOfAnotherFamilyThatThrewGivesTheOuterOneBackToItsTask() async {
        let assembly = CrossingAssembly()
        for _ in 0..<10 {
            let parts = await assembly.partsAroundAFailure
            #expect(parts[0] === parts[1], "the outer graph was lost when the inner one threw")
        }
    }

    @Test func manyTasksFindTheirOwnGraphsAtOnce() async {
        let assembly = CrossingAssembly()
        let results = await withTaskGroup(of: [Part].self) { group in
            for _ in 0..<64 {
                group.addTask { await assembly.parts }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64)
        for parts in results {
            #expect(parts[0] === parts[1])
        }
        #expect(Set(results.map { ObjectIdentifier($0[0]) }).count == 64, "two tasks shared a graph")
    }

    @Test func aThousandTasksWithGraphsOpenAtOnceEachFindTheirOwn() async {
        let assembly = ReuseAssembly()
        let gate = Gate()
        let opened = Counter()
        let results = await withTaskGroup(of: [Part].self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    opened.tick("opened")
                    return await assembly.partsAcross(gate)
                }
            }
            // Every task has its graph open, or is about to, before any goes on.
            while opened["opened"] < 1_000 { await Task.yield() }
            gate.open()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 1_000)
        #expect(results.allSatisfy { $0[0] === $0[1] }, "a task read another task's graph")
        #expect(Set(results.map { ObjectIdentifier($0[0]) }).count == 1_000)
    }

    @Test func aDefinitionKeptPastItsAsyncBodyStopsInALaterGraph() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let assembly = ReuseAssembly()
            _ = await assembly.leaky
            _ = await assembly.root
            _ = await assembly.usesTheKeptDefinition
        }
        #expect(stderr(of: result).contains("the Definition of ReuseAssembly.leaky was used after its body returned"))
    }
}
