import Assemblies
import Foundation
import Testing

// Definitions whose bodies throw: the error reaches the top-level reader, nothing half-built stays
// in the graph or is published, a singleton whose body threw is built again, and the hooks of
// instances that never finished don't run.

private enum UnreachableDatabase: Error, Equatable {
    case unreachable(String)
}

private struct OtherError: Error {}

private final class ThrowingDatabase {
    let url: String
    init(url: String) { self.url = url }

    static func open(_ url: String, failing: Bool) throws(UnreachableDatabase) -> ThrowingDatabase {
        if failing { throw .unreachable(url) }
        return ThrowingDatabase(url: url)
    }
}

private final class Repository {
    let database: ThrowingDatabase
    init(database: ThrowingDatabase) { self.database = database }
}

private final class Service {
    let repository: Repository?
    let fallback: Bool
    init(repository: Repository?, fallback: Bool) {
        self.repository = repository
        self.fallback = fallback
    }
}

private final class Node {
    var partner: Node?

    init(partner: Node? = nil) {
        self.partner = partner
    }
}

/// Tells which calls fail; thread-safe, so that a test can switch failures off mid-way.
private final class Failures: Sendable {
    private let names: Guarded<Set<String>>

    init(_ names: Set<String>) { self.names = Guarded(names) }

    func fails(_ name: String) -> Bool { names.withLock { $0.contains(name) } }
    func clear() { names.withLock { $0 = [] } }
}

private final class ThrowingAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let hooks = Counter()
    let failures: Failures
    /// Signalled when a failing build of `singletonDatabase` has claimed its slot.
    let failingBuildStarted = DispatchSemaphore(value: 0)
    /// Set by a test whose other threads read `singletonDatabase` while a failing build runs.
    let othersRead = Guarded(false)

    required init() {
        failures = Failures(["database", "singletonDatabase"])
        super.init()
    }

    var database: ThrowingDatabase {
        get throws(UnreachableDatabase) {
            try define { () throws(UnreachableDatabase) in
                counter.tick()
                return try ThrowingDatabase.open("postgres://db", failing: failures.fails("database"))
            }
        }
    }

    var singletonDatabase: ThrowingDatabase {
        get throws {
            try define(scope: .singleton) { definition in
                counter.tick()
                definition.afterWiring { _ in self.hooks.tick("singletonDatabase.afterWiring") }
                let failing = failures.fails("singletonDatabase")
                if failing {
                    failingBuildStarted.signal()
                    if othersRead.withLock({ $0 }) {
                        untilSomeoneWaits(for: self, "singletonDatabase")  // another thread waits for the slot
                    }
                }
                return try ThrowingDatabase.open("postgres://single", failing: failing)
            }
        }
    }

    var repository: Repository {
        get throws {
            try define { definition in
                definition.afterWiring { _ in self.hooks.tick("repository.afterWiring") }
                definition.afterAllInjections { _ in self.hooks.tick("repository.afterAllInjections") }
                return Repository(database: try self.database)
            }
        }
    }

    /// Catches the error of a dependency and goes on without it.
    var tolerantService: Service {
        define { definition in
            definition.afterAllInjections { _ in self.hooks.tick("tolerantService.afterAllInjections") }
            let repository = try? self.repository
            self.failures.clear()
            let second = try? self.repository  // read again in the same graph: built again
            return Service(repository: second ?? repository, fallback: repository == nil)
        }
    }

    /// A prototype that throws, read through a method with arguments.
    func connection(to url: String) throws(UnreachableDatabase) -> ThrowingDatabase {
        try define(scope: .prototype, arguments: url) { () throws(UnreachableDatabase) in
            try ThrowingDatabase.open(url, failing: url.hasPrefix("bad:"))
        }
    }

    /// A singleton finished, then held for the graph's steps, in a graph that then throws.
    var heldSingleton: Node {
        define(scope: .singleton) { definition in
            counter.tick()
            definition.afterAllInjections { _ in self.hooks.tick("heldSingleton.afterAllInjections") }
            return Node()
        }
    }

    var graphThatFailsLate: Repository {
        get throws {
            try define {
                _ = self.heldSingleton
                return Repository(database: try self.database)
            }
        }
    }

    /// Registers itself, hands itself out to its partner, then throws: can't be undone.
    var selfish: Node {
        get throws {
            try define { definition in
                let node = definition *~> Node()
                node.partner = self.partner
                if failures.fails("database") { throw OtherError() }
                return node
            }
        }
    }

    var partner: Node {
        define { definition in
            let node = definition *~> Node()
            node.partner = try? self.selfish
            return node
        }
    }

    /// `selfish`, in an async graph: only a body that can throw has its taker recorded, here through
    /// the async read.
    var selfishAsync: Node {
        get async throws {
            try await define { definition in
                let node = definition *~> Node()
                node.partner = await self.asyncPartner
                if failures.fails("database") { throw OtherError() }
                return node
            }
        }
    }

    var asyncPartner: Node {
        get async {
            await define { definition in
                let node = definition *~> Node()
                node.partner = try? await self.selfishAsync
                return node
            }
        }
    }

    /// Registers itself and catches the error of `child`, which read it back first.
    var forgivingParent: Node {
        define { definition in
            let node = definition *~> Node()
            node.partner = try? self.childThatThrows
            return node
        }
    }

    /// Registers itself, takes its parent's in-flight instance, then throws: only this read is undone.
    var childThatThrows: Node {
        get throws {
            try define { definition in
                let node = definition *~> Node()
                node.partner = self.forgivingParent
                counter.tick()
                throw OtherError()
            }
        }
    }

    /// Registers itself, reads `moat`, whose `keep` reads it back, then throws.
    var tower: Node {
        get throws {
            try define { definition in
                let node = definition *~> Node()
                node.partner = self.moat
                throw OtherError()
            }
        }
    }

    var moat: Node {
        define { Node(partner: self.keep) }
    }

    var keep: Node {
        define { Node(partner: try? self.tower) }
    }

    /// Registers itself, then throws before anything reads it: simply dropped.
    var registeredThenThrows: Node {
        get throws {
            try define { definition in
                definition *~> Node()
                throw OtherError()
            }
        }
    }
}

@Suite struct ThrowingDefinitionTests {
    @Test func theErrorReachesTheTopLevelReaderWithItsType() {
        let app = ThrowingAssembly()
        #expect(throws: UnreachableDatabase.unreachable("postgres://db")) { try app.database }
        #expect(throws: UnreachableDatabase.unreachable("postgres://db")) { try app.repository }
        do {
            _ = try app.database
            Issue.record("no error")
        } catch {
            let typed: UnreachableDatabase = error  // typed throws: `error` is a UnreachableDatabase
            #expect(typed == .unreachable("postgres://db"))
        }
    }

    @Test func aDefinitionThatThrowsIsBuiltAgainOnTheNextRead() throws {
        let app = ThrowingAssembly()
        #expect(throws: UnreachableDatabase.self) { try app.database }
        app.failures.clear()
        #expect(try app.database.url == "postgres://db")
        #expect(app.counter["database"] == 2)
    }

    @Test func aBodyThatCatchesTheErrorGoesOnAndTheGraphBuildsTheDefinitionAgain() throws {
        let app = ThrowingAssembly()
        let service = app.tolerantService
        #expect(service.fallback, "the first read failed")
        #expect(service.repository?.database.url == "postgres://db", "the second read built it")
        #expect(app.counter["database"] == 2)
        #expect(app.hooks["repository.afterWiring"] == 1, "only the repository that finished")
        #expect(app.hooks["repository.afterAllInjections"] == 1)
        #expect(app.hooks["tolerantService.afterAllInjections"] == 1)
    }

    @Test func hooksOfInstancesThatNeverFinishedDoNotRun() {
        let app = ThrowingAssembly()
        #expect(throws: UnreachableDatabase.self) { try app.repository }
        #expect(app.hooks["repository.afterWiring"] == 0)
        #expect(app.hooks["repository.afterAllInjections"] == 0)
    }

    @Test func aSingletonWhoseBodyThrewIsBuiltAgainAndNothingIsPublished() throws {
        let app = ThrowingAssembly()
        #expect(throws: UnreachableDatabase.self) { try app.singletonDatabase }
        #expect(throws: UnreachableDatabase.self) { try app.singletonDatabase }
        #expect(app.hooks["singletonDatabase.afterWiring"] == 0)
        app.failures.clear()
        let database = try app.singletonDatabase
        #expect(try app.singletonDatabase === database)
        #expect(app.counter["singletonDatabase"] == 3)
        #expect(app.hooks["singletonDatabase.afterWiring"] == 1)
    }

    @Test func threadsWaitingForASingletonWhoseBodyThrewBuildItThemselves() {
        let app = ThrowingAssembly()
        let outcomes = Guarded<[String]>([])
        app.othersRead.withLock { $0 = true }
        let finished = finishes {
            onThreads(4) { thread in
                if thread > 0 {
                    app.failingBuildStarted.wait()  // the first thread has claimed the slot
                    app.failingBuildStarted.signal()
                    app.failures.clear()
                }
                do {
                    let database = try app.singletonDatabase
                    outcomes.withLock { $0.append(database.url) }
                } catch {
                    outcomes.withLock { $0.append("threw") }
                }
            }
        }
        #expect(finished, "no thread waits for ever for the slot that was given up")
        let results = outcomes.withLock { $0 }
        #expect(results.count == 4)
        #expect(results.filter { $0 == "threw" }.count == 1, "\(results)")
        let built = app.counter["singletonDatabase"]
        #expect(built == 2, "one build that threw, then one that every other thread shares: \(built)")
    }

    @Test func aSingletonHeldForTheStepsOfAGraphThatThrewIsNotPublished() throws {
        let app = ThrowingAssembly()
        #expect(throws: UnreachableDatabase.self) { try app.graphThatFailsLate }
        #expect(app.hooks["heldSingleton.afterAllInjections"] == 0, "the failed graph runs no steps")
        let first = app.heldSingleton
        #expect(app.counter["heldSingleton"] == 2, "built again, since the first was never finished")
        #expect(app.heldSingleton === first)
        #expect(app.hooks["heldSingleton.afterAllInjections"] == 1)
    }

    @Test func aThrowingMethodWithArgumentsThrowsForItsArguments() throws {
        let app = ThrowingAssembly()
        #expect(try app.connection(to: "postgres://one").url == "postgres://one")
        #expect(throws: UnreachableDatabase.unreachable("bad:two")) { try app.connection(to: "bad:two") }
    }

    @Test func anInstanceRegisteredThenDroppedIsReleased() {
        weak var registered: Node?
        let app = ThrowingAssembly()
        #expect(throws: OtherError.self) {
            try app.define { (definition: Definition<Node>) throws(OtherError) in
                let node = definition *~> Node()
                registered = node
                throw OtherError()
            }
        }
        #expect(registered == nil, "nothing keeps the instance of the body that threw")
        #expect(throws: OtherError.self) { try app.registeredThenThrows }
    }

    @Test func aBodyThatThrowsAfterHandingItselfOutStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? ThrowingAssembly().selfish
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "the body of ThrowingAssembly.selfish threw after its instance, registered with `*~>`, was "
                    + "handed out to ThrowingAssembly.partner"
            ),
            "\(output)"
        )
        #expect(
            output.contains(
                "handed out to ThrowingAssembly.partner, which read it back while it was being built "
                    + "(ThrowingAssembly.selfish → ThrowingAssembly.partner → ThrowingAssembly.selfish)"
            ),
            "\(output)"
        )
        #expect(output.contains("do the work that throws in ThrowingAssembly.selfish before"), "\(output)")
    }

    @Test func anAsyncBodyThatThrowsAfterHandingItselfOutStopsNamingTheTaker() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? await ThrowingAssembly().selfishAsync
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "handed out to ThrowingAssembly.asyncPartner, which read it back while it was being built "
                    + "(ThrowingAssembly.selfishAsync → ThrowingAssembly.asyncPartner → ThrowingAssembly.selfishAsync)"
            ),
            "\(output)"
        )
    }

    @Test func aStopNamesTheWholeCycleThatTookTheInstance() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? ThrowingAssembly().tower
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "handed out to ThrowingAssembly.keep, which read it back while it was being built "
                    + "(ThrowingAssembly.tower → ThrowingAssembly.moat → ThrowingAssembly.keep → ThrowingAssembly.tower)"
            ),
            "\(output)"
        )
    }

    @Test func aCaughtErrorBelowAHandedOutFrameUndoesOnlyThatRead() {
        let app = ThrowingAssembly()
        let parent = app.forgivingParent
        #expect(parent.partner == nil, "the parent caught its child's error and went on without it")
        #expect(app.counter["childThatThrows"] == 1, "the child's body ran once, and threw")
        let again = app.forgivingParent
        #expect(again !== parent, "an object-graph definition: a new graph builds a new parent")
        #expect(again.partner == nil)
    }

    /// A key path can't name a throwing property, but the closure of `replace(awaiting:)` can, also
    /// when the member is synchronous: no subclass needed.
    @Test func aSynchronousThrowingMemberIsReplacedThroughAClosureThatReadsIt() async throws {
        let app = ThrowingAssembly()  // whose database fails to open
        let overrides = Overrides(of: app)
        await overrides.replace(awaiting: { try $0.database }, with: { ThrowingDatabase(url: "memory") })
        let repository = try overrides.apply { try app.repository }
        #expect(repository.database.url == "memory", "everything that reads the member gets the double")
        #expect(overrides.unused.isEmpty)
        #expect(app.counter["database"] == 0, "naming the member didn't run its body")
        #expect(throws: UnreachableDatabase.unreachable("postgres://db")) { try app.database }
    }

    @Test func aNonThrowingDefinitionNeedsNoTry() {
        let app = ThrowingAssembly()
        let node = app.heldSingleton  // no `try`: the body throws nothing, so `define` doesn't either
        #expect(app.heldSingleton === node)
    }
}
