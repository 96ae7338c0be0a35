import Assemblies
import Foundation
import Testing

// Async definitions: members declared `get async` whose bodies await. A top-level `await` read
// owns one graph across every suspension; synchronous members read in it join it; singletons are
// built once, with readers suspended rather than blocked.

private final class Connection: @unchecked Sendable {
    let url: String
    init(url: String) { self.url = url }

    /// Connects after a few suspensions, so that the task is likely to resume on other threads.
    static func open(_ url: String) async -> Connection {
        for _ in 0..<3 { await Task.yield() }
        try? await Task.sleep(nanoseconds: 1_000_000)
        return Connection(url: url)
    }
}

private final class Log: @unchecked Sendable {}

private final class Repository: @unchecked Sendable {
    let connection: Connection
    let log: Log
    init(connection: Connection, log: Log) {
        self.connection = connection
        self.log = log
    }
}

private final class Service: @unchecked Sendable {
    let repository: Repository
    let log: Log
    var partner: Partner?
    init(repository: Repository, log: Log) {
        self.repository = repository
        self.log = log
    }
}

/// Reads its assembly's `plainLog` as it goes, and says it did.
private final class Ephemeral: @unchecked Sendable {
    unowned let assembly: HookedAssembly
    init(assembly: HookedAssembly) { self.assembly = assembly }
    deinit {
        _ = assembly.plainLog
        assembly.logsSeen.withLock { $0.append(ObjectIdentifier(Log.self)) }
    }
}

private final class Partner: @unchecked Sendable {
    var service: Service?
    let log: Log
    init(log: Log) { self.log = log }
}

private class AsyncAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let foundTheLog = Guarded<[Bool]>([])

    var log: Log { define { Log() } }

    var connection: Connection {
        get async {
            await define {
                counter.tick("connection")
                return await Connection.open("postgres://localhost/app")
            }
        }
    }

    var sharedConnection: Connection {
        get async {
            await define(scope: .singleton) {
                counter.tick("sharedConnection")
                return await Connection.open("postgres://localhost/shared")
            }
        }
    }

    var repository: Repository {
        get async { await define { Repository(connection: await self.connection, log: self.log) } }
    }

    var service: Service {
        get async {
            await define { definition in
                let service = definition *~> Service(repository: await self.repository, log: self.log)
                await Task.yield()
                service.partner = await self.partner
                return service
            }
        }
    }

    var partner: Partner {
        get async {
            await define { definition in
                let partner = definition *~> Partner(log: self.log)
                await Task.yield()
                partner.service = await self.service
                return partner
            }
        }
    }

    /// A repository whose body finds, after a suspension, the log it read before it.
    var repositoryOnItsOwnLog: Repository {
        get async {
            await define {
                let log = self.log
                await Task.yield()
                let found: Log? = self.existingObjectByMatchingType()
                foundTheLog.withLock { $0.append(found != nil && found === log) }
                return Repository(connection: await self.connection, log: log)
            }
        }
    }

    var freshConnection: Connection {
        get async { await define(scope: .prototype) { await Connection.open("fresh") } }
    }

    func connection(to url: String) async -> Connection {
        await define(arguments: url) { await Connection.open(url) }
    }

    /// A chain of `depth` async reads, each awaiting the next and reading `log` after it.
    func chain(_ depth: Int) async -> Chain {
        await define(arguments: depth) {
            let next = depth == 0 ? nil : await self.chain(depth - 1)
            return Chain(next: next, log: self.log)
        }
    }
}

private final class Chain: @unchecked Sendable {
    let next: Chain?
    let log: Log
    init(next: Chain?, log: Log) {
        self.next = next
        self.log = log
    }
}

@Suite("Async definitions", .timeLimit(.minutes(1)))
struct AsyncDefinitionTests {
    @Test func aBodyAwaitsAndTheReadGetsTheInstance() async {
        let app = AsyncAssembly()
        let connection = await app.connection
        #expect(connection.url == "postgres://localhost/app")
        #expect(app.counter["connection"] == 1)
    }

    @Test func oneGraphAcrossSuspensions() async {
        let app = AsyncAssembly()
        let service = await app.service
        // `log` is read synchronously in three bodies, each after suspensions: one instance.
        #expect(service.log === service.repository.log)
        #expect(service.partner?.log === service.log)
        // The cycle closes through the instance registered before the first `await`.
        #expect(service.partner?.service === service)
        #expect(app.counter["connection"] == 1)
    }

    @Test func eachTopLevelReadHasAGraphOfItsOwn() async {
        let app = AsyncAssembly()
        let first = await app.service
        let second = await app.service
        #expect(first !== second)
        #expect(first.log !== second.log)
    }

    @Test func concurrentTopLevelReadsNeverShareAGraph() async {
        let app = AsyncAssembly()
        let services = await withTaskGroup(of: Service.self) { group in
            for _ in 0..<50 { group.addTask { await app.service } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(services.map { ObjectIdentifier($0.log) }).count == 50)
        for service in services {
            #expect(service.repository.log === service.log)
            #expect(service.partner?.service === service)
        }
    }

    @Test func aSingletonIsBuiltOnceFor100Tasks() async {
        let app = AsyncAssembly()
        let connections = await withTaskGroup(of: Connection.self) { group in
            for _ in 0..<100 { group.addTask { await app.sharedConnection } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(app.counter["sharedConnection"] == 1)
        #expect(Set(connections.map(ObjectIdentifier.init)).count == 1)
    }

    @Test func anAsyncBodyFindsTheInstancesOfItsGraph() async {
        let app = AsyncAssembly()
        let repository = await app.repositoryOnItsOwnLog
        #expect(app.existingObjectByMatchingType() as Log? == nil, "outside a resolution")
        let again = await app.repositoryOnItsOwnLog
        #expect(repository.log !== again.log, "each graph has its own log")
        #expect(app.foundTheLog.withLock { $0 } == [true, true])
    }

    @Test func tenThousandLevelsOfAsyncReadsShareOneGraph() async {
        let app = AsyncAssembly()
        var link: Chain? = await app.chain(10_000)
        var levels = 0
        let log = link?.log
        while let current = link {
            #expect(current.log === log)
            levels += 1
            link = current.next
        }
        #expect(levels == 10_001)
    }

    @Test func prototypesAndArguments() async {
        let app = AsyncAssembly()
        let first = await app.freshConnection
        let second = await app.freshConnection
        #expect(first !== second)
        let a = await app.connection(to: "a")
        #expect(a.url == "a")
    }
}

// MARK: Hooks, throwing, cancellation, scopes

private enum ConnectionRefused: Error { case refused }

private final class HookedAssembly: Assembly, @unchecked Sendable {
    let events = Guarded<[String]>([])
    let failures = Guarded(0)
    let gate = Gate()
    let counter = Counter()

    var log: Log { define(scope: .singleton) { Log() } }

    var service: Service {
        get async {
            await define { definition in
                definition.afterWiring { _ in self.events.withLock { $0.append("service wired") } }
                definition.afterAllInjections { _ in self.events.withLock { $0.append("service step") } }
                let repository = await self.repository
                self.events.withLock { $0.append("service body") }
                return Service(repository: repository, log: self.log)
            }
        }
    }

    var repository: Repository {
        get async {
            await define { definition in
                definition.afterAllInjections { _ in self.events.withLock { $0.append("repository step") } }
                await Task.yield()
                return Repository(connection: Connection(url: "r"), log: self.log)
            }
        }
    }

    /// What `closing`'s step and the deinit of what its graph lets go of got from `plainLog`.
    let logsSeen = Guarded<[ObjectIdentifier]>([])

    var plainLog: Log { define { Log() } }

    /// Read in `closing`'s body and held by nothing else: its graph releases it as it closes, and
    /// its deinit reads the family.
    var leftBehind: Ephemeral { define { Ephemeral(assembly: self) } }

    /// Reads `plainLog` in its body, after a suspension, and again in a step.
    var closing: Repository {
        get async {
            await define { definition in
                definition.afterAllInjections { _ in
                    self.logsSeen.withLock { $0.append(ObjectIdentifier(self.plainLog)) }
                }
                await Task.yield()
                _ = self.leftBehind
                return Repository(connection: Connection(url: "closing"), log: self.plainLog)
            }
        }
    }

    /// Throws while `failures` is positive, counting down.
    var flaky: Connection {
        get async throws(ConnectionRefused) {
            try await define(scope: .singleton) { () async throws(ConnectionRefused) -> Connection in
                counter.tick("flaky")
                await Task.yield()
                let fails = failures.withLock { count in
                    defer { count -= 1 }
                    return count > 0
                }
                if fails { throw .refused }
                return Connection(url: "flaky")
            }
        }
    }

    /// Waits at `gate` before it finishes; its body may throw anything.
    var slow: Connection {
        get async throws {
            try await define(scope: .singleton) { () async throws -> Connection in
                counter.tick("slow")
                await gate.wait()
                return Connection(url: "slow")
            }
        }
    }

    /// Like `slow`, but its body throws nothing: a reader can't be given a `CancellationError`.
    var slowNonThrowing: Connection {
        get async {
            await define(withKey: "slowNonThrowing", scope: .singleton) {
                counter.tick("slowNonThrowing")
                await gate.wait()
                return Connection(url: "slow")
            }
        }
    }

    var weakConnection: Connection {
        get async {
            await define(scope: .weakSingleton) {
                counter.tick("weak")
                return await Connection.open("weak")
            }
        }
    }

    var sessionConnection: Connection {
        get async { await define(scope: .session) { await Connection.open("session") } }
    }
}

extension Scope {
    fileprivate static let session = Scope.resettable("async-session")
}

/// A singleton whose body starts a child task that reads the same singleton, then waits for the
/// child: the child waits for the parent's build, which it can't get before the body returns. Once
/// the child has waited longer than the warning's delay (0.2 s), the body cancels it, so that the
/// program goes on.
private final class ParentAwaitsChildAssembly: Assembly, @unchecked Sendable {
    var shared: Log {
        get async throws {
            try await define(scope: .singleton) {
                try Task.checkCancellation()  // an untyped throws: a waiting reader can be cancelled
                let child = Task { try await self.shared }
                await untilSomeoneWaits(for: self, "shared")
                try? await Task.sleep(nanoseconds: 500_000_000)
                child.cancel()
                _ = try? await child.value
                return Log()
            }
        }
    }
}

@Suite("Async definitions: hooks, errors, cancellation, scopes", .timeLimit(.minutes(1)))
struct AsyncDefinitionLifecycleTests {
    @Test func hooksRunWhenTheBodyReturnsAndStepsWhenTheGraphCompletes() async {
        let app = HookedAssembly()
        _ = await app.service
        #expect(
            app.events.withLock { $0 } == [
                "service body", "service wired", "repository step", "service step",
            ]
        )
    }

    @Test func aStepReadsTheInstancesOfTheGraphItsAwaitReadClosesAndWhatTheGraphLetsGoOfIsReleased() async {
        let app = HookedAssembly()
        let repository = await app.closing
        // The step shares the graph's object-graph instance; the instance only the graph held goes
        // as the graph closes, after the step.
        #expect(
            app.logsSeen.withLock { $0 } == [ObjectIdentifier(repository.log), ObjectIdentifier(Log.self)]
        )
    }

    @Test func aSingletonWhoseBodyThrewIsBuiltAgainByTheNextReader() async throws {
        let app = HookedAssembly()
        app.failures.withLock { $0 = 1 }
        await #expect(throws: ConnectionRefused.refused) { try await app.flaky }
        let connection = try await app.flaky
        #expect(connection.url == "flaky")
        #expect(app.counter["flaky"] == 2)
        #expect(try await app.flaky === connection)
    }

    @Test func waitingTasksRetryAfterAFailedBuild() async {
        let app = HookedAssembly()
        app.failures.withLock { $0 = 1 }
        let results = await withTaskGroup(of: Connection?.self) { group in
            for _ in 0..<100 { group.addTask { try? await app.flaky } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let built = results.compactMap { $0 }
        #expect(built.count == 99)
        #expect(Set(built.map(ObjectIdentifier.init)).count == 1)
        #expect(app.counter["flaky"] == 2)
    }

    @Test func aCancelledReaderStopsWaitingAndTheBuildGoesOn() async throws {
        let app = HookedAssembly()
        let builder = Task { try await app.slow }
        while app.counter["slow"] == 0 { await Task.yield() }
        let reader = Task { try await app.slow }
        await untilSomeoneWaits(for: app, "slow")  // the reader waits for the builder's instance
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        app.gate.open()
        let built = try await builder.value
        #expect(try await app.slow === built)
        #expect(app.counter["slow"] == 1)
    }

    @Test func aReaderThatCantThrowCancellationWaitsForTheInstance() async throws {
        let app = HookedAssembly()
        let builder = Task { await app.slowNonThrowing }
        while app.counter["slowNonThrowing"] == 0 { await Task.yield() }
        let reader = Task { await app.slowNonThrowing }
        await untilSomeoneWaits(for: app, "slowNonThrowing")  // the reader waits for the builder's instance
        reader.cancel()
        app.gate.open()
        #expect(await reader.value === builder.value)
        #expect(app.counter["slowNonThrowing"] == 1)
    }

    @Test func aTaskThatWaitsLongForASingletonWarnsOnce() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Assembly.singletonWaitWarningDelay = 0.2
            _ = try? await ParentAwaitsChildAssembly().shared
        }
        let message = stderr(of: result)
        #expect(message.contains("has waited 0.2 s for the singleton ParentAwaitsChildAssembly.shared"), "\(message)")
        #expect(message.contains("which task "), "\(message)")
        #expect(message.contains("This task reads it from ParentAwaitsChildAssembly.shared."), "\(message)")
        #expect(message.contains("Still waiting."))
        #expect(message.components(separatedBy: "has waited").count == 2, "once")
    }

    @Test func weakAndResettableScopes() async {
        let app = HookedAssembly()
        var weak: Connection? = await app.weakConnection
        #expect(await app.weakConnection === weak)
        #expect(app.counter["weak"] == 1)
        weak = nil
        _ = await app.weakConnection
        #expect(app.counter["weak"] == 2)
        let session = await app.sessionConnection
        #expect(await app.sessionConnection === session)
        app.reset(.session)
        #expect(await app.sessionConnection !== session)
    }
}

// MARK: Cycles, isolation, child tasks, overrides, observation

private final class Station: @unchecked Sendable {
    var other: Station?
    let name: String
    init(name: String) { self.name = name }
}

private final class CycleAssembly: Assembly, @unchecked Sendable {
    var north: Station {
        get async {
            await define(scope: .singleton) { definition in
                let station = definition *~> Station(name: "north")
                await Task.yield()
                station.other = await self.south
                return station
            }
        }
    }

    var south: Station {
        get async {
            await define(scope: .singleton) { definition in
                let station = definition *~> Station(name: "south")
                await Task.yield()
                station.other = await self.north
                return station
            }
        }
    }
}

private final class ConcurrentCycleAssembly: Assembly, @unchecked Sendable {
    let bothStarted = Gate()
    let started = Guarded(0)

    var north: Station {
        get async {
            await define(scope: .singleton) { definition in
                let station = definition *~> Station(name: "north")
                await self.arrive()
                station.other = await self.south
                return station
            }
        }
    }

    var south: Station {
        get async {
            await define(scope: .singleton) { definition in
                let station = definition *~> Station(name: "south")
                await self.arrive()
                station.other = await self.north
                return station
            }
        }
    }

    func arrive() async {
        if started.withLock({ count in
            count += 1
            return count
        }) == 2 {
            bothStarted.open()
        }
        await bothStarted.wait()
    }
}

@MainActor
private final class ViewModel {
    let service: Service
    init(service: Service) { self.service = service }
}

private final class ScreenAssembly: Assembly, @unchecked Sendable {
    var app: AsyncAssembly { collaborator() }
    let counter = Counter()

    @MainActor
    var viewModel: ViewModel {
        get async {
            await define(scope: .singleton) {
                MainActor.assertIsolated()
                counter.tick("viewModel")
                let service = await self.app.service
                MainActor.assertIsolated()
                return ViewModel(service: service)
            }
        }
    }

    /// Reads `log` in the body and in two child tasks.
    var logs: (Log, Log, Log) {
        get async {
            await define { () async -> (Log, Log, Log) in
                async let first = self.childLog()
                async let second = self.childLog()
                return (self.app.log, await first, await second)
            }
        }
    }

    func childLog() async -> Log { app.log }
}

private final class FastAsyncAssembly: AsyncAssembly, @unchecked Sendable {
    // An override of an async member may define it synchronously. (It keeps `get async`: with Swift
    // 6.3, a synchronous getter that overrides an async one crashes when called in a debug build.)
    override var connection: Connection { get async { define { Connection(url: "memory") } } }
}

private final class RecordingObserver: ResolutionObserver, @unchecked Sendable {
    let lines = Guarded<[String]>([])
    func didResolve(_ resolution: Resolution) {
        let line = String(repeating: "  ", count: resolution.depth) + resolution.definition.description
        lines.withLock { $0.append(line) }
    }
}

/// An assembly whose async body reads, synchronously, a member of another family that reads back a
/// singleton this task's graph holds back until it completes.
private final class HeldBackAssembly: Assembly, @unchecked Sendable {
    let partner = PartnerAssembly()

    var held: Log {
        define(scope: .singleton) { definition in
            definition.afterAllInjections { _ in }
            return Log()
        }
    }

    var start: Repository {
        get async {
            await define {
                let held = self.held  // held back until this graph completes
                await Task.yield()
                self.partner.app.withLock { $0 = self }
                return Repository(connection: Connection(url: "x"), log: self.partner.heldSeenFromAnotherFamily ?? held)
            }
        }
    }
}

private final class PartnerAssembly: Assembly, @unchecked Sendable {
    let app = Guarded<HeldBackAssembly?>(nil)

    var heldSeenFromAnotherFamily: Log? {
        define { app.withLock { $0 }?.held }
    }
}

@Suite("Async definitions: cycles, isolation, child tasks, overrides", .timeLimit(.minutes(1)))
struct AsyncDefinitionCycleTests {
    @Test func singletonsCloseACycleInOneTask() async {
        let app = CycleAssembly()
        let north = await app.north
        #expect(north.other?.other === north)
        #expect(await app.south === north.other)
    }

    @Test func twoTasksBuildingSingletonsThatWaitForEachOtherStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = ConcurrentCycleAssembly()
            async let north = app.north
            async let south = app.south
            _ = await (north, south)
        }
        let message = stderr(of: result)
        #expect(message.contains("two tasks wait for each other's singletons"))
        // Both chains whole, whichever task finds the cycle: each reads its own singleton, then the other's.
        let north = "ConcurrentCycleAssembly.north"
        let south = "ConcurrentCycleAssembly.south"
        let northFirst = "\(north) → \(south)"
        let southFirst = "\(south) → \(north)"
        #expect(
            (message.contains("this task reads \(northFirst), and")
                && message.contains("which reads \(southFirst) and waits"))
                || (message.contains("this task reads \(southFirst), and")
                    && message.contains("which reads \(northFirst) and waits")),
            "\(message)"
        )
    }

    @MainActor
    @Test func aMainActorDefinitionBuildsOnTheMainActor() async {
        let screens = ScreenAssembly()
        let warnings = CapturedWarnings()
        let viewModel = await warnings.capture { await screens.viewModel }
        #expect(await screens.viewModel === viewModel)
        #expect(screens.counter["viewModel"] == 1)
        #expect(viewModel.service.partner?.service === viewModel.service)
        // The view model keeps the service, an object-graph instance: the family says so, once.
        #expect(warnings.containing("captive dependency: ScreenAssembly.viewModel").count == 1, "\(warnings.all)")
    }

    /// The body's `definition` is its task's, not its thread's: it registers and adds hooks after
    /// the body has suspended and resumed, on whichever thread.
    @Test func aDefinitionStaysValidAcrossItsBodysSuspensions() async {
        let suspending = await SuspendingAssembly().suspending
        #expect(suspending.isHooked)
        #expect(suspending.partner?.partner === suspending, "registered after a suspension: the cycle closed on it")
    }

    @Test func childTasksReadInGraphsOfTheirOwn() async {
        let screens = ScreenAssembly()
        let (own, first, second) = await screens.logs
        #expect(own !== first)
        #expect(own !== second)
        #expect(first !== second)
    }

    @Test func aSubstituteAssemblyOverridesAnAsyncMemberWithASynchronousOne() async {
        let app = AsyncAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(AsyncAssembly.self, with: FastAsyncAssembly.self)
        await overrides.apply {
            let repository = await app.collaborator(AsyncAssembly.self).repository
            #expect(repository.connection.url == "memory")
        }
        #expect(await app.repository.connection.url == "postgres://localhost/app")
    }

    @Test func overridesKeepTheirOwnAsyncSingletons() async {
        let app = AsyncAssembly()
        let shared = await app.sharedConnection
        let overrides = Overrides(of: app)
        overrides.replace(\.log) { Log() }
        let overridden = await overrides.apply(whenUnused: .ignore) { await app.sharedConnection }
        #expect(overridden !== shared)
        #expect(await app.sharedConnection === shared)
    }

    @Test func asyncReadsAreReportedWithTheSynchronousReadsTheyMake() async {
        let app = AsyncAssembly()
        let observer = RecordingObserver()
        app.observeResolutions(with: observer)
        _ = await app.repository
        app.stopObservingResolutions()
        #expect(
            observer.lines.withLock { $0 }
                == [
                    "    AsyncAssembly.connection",
                    "    AsyncAssembly.log",
                    "  AsyncAssembly.repository",
                ].map { String($0.dropFirst(2)) }
        )
    }

    @Test func anAsyncRecordingHoldsTheTasksReadsOnWhicheverThreadsItRan() async {
        let app = AsyncAssembly()
        let graph = await app.recordGraph {
            _ = app.log
            _ = await app.service
        }
        #expect(
            Set(graph.nodes.map(\.definition.member))
                == ["log", "service", "repository", "connection", "partner"]
        )
        #expect(graph.nodes.filter { $0.definition.member == "log" }.count == 2, "one outside the graph, one in it")
        #expect(graph.nodes.prefix(2).map(\.definition.member) == ["log", "service"], "in the order the reads started")
        #expect(!graph.edges.contains { $0.from == graph.nodes[0].number || $0.to == graph.nodes[0].number })
        #expect(graph.edges.contains { $0.isInFlight }, "the cycle between service and partner")
    }

    @Test func anAsyncRecordingLeavesOutOtherTasksEvenItsChildren() async {
        let app = AsyncAssembly()
        let graph = await app.recordGraph {
            async let child = app.connection
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = await app.freshConnection }
            }
            _ = await child
            _ = await app.sharedConnection
        }
        #expect(graph.nodes.map(\.definition.member) == ["sharedConnection"])
    }

    @Test func anAsyncBuildReportTimesBodiesWithTheirSuspensions() async {
        let app = AsyncAssembly()
        let report = await app.buildReport { _ = await app.repository }
        #expect(report.rows.map(\.definition.member) == ["repository", "connection", "log"])
        #expect(report.rows[1].ownNanoseconds >= 1_000_000, "Connection.open sleeps 1 ms")
        #expect(report.rows[0].nanoseconds >= report.rows[1].nanoseconds)
    }

    @Test func anotherFamilyReadInAnAsyncBodyGetsTheSingletonTheTaskHoldsBack() async {
        let app = HeldBackAssembly()
        let held = Guarded<(Log, Log)?>(nil)
        let finished = await completes(within: 10) {
            let repository = await app.start
            held.withLock { $0 = (repository.log, app.held) }
        }
        #expect(finished, "a thread waited for the task it was running")
        #expect(held.withLock { $0.map { $0.0 === $0.1 } } == true)
    }

    @Test func anOverrideNamesAnAsyncMemberWithAClosure() async {
        let app = AsyncAssembly()
        let overrides = Overrides(of: app)
        await overrides.replace(awaiting: { await $0.connection }, with: { Connection(url: "memory") })
        #expect(app.counter["connection"] == 0, "naming it ran no body")
        await overrides.apply {
            #expect(await app.repository.connection.url == "memory")
            #expect(await app.connection.url == "memory")
        }
        #expect(overrides.unused.isEmpty)
        #expect(await app.repository.connection.url == "postgres://localhost/app")
        #expect(app.counter["connection"] == 1)
    }

    @Test func aClosureMayNameASynchronousMemberToo() async {
        let app = AsyncAssembly()
        let overrides = Overrides(of: app)
        let double = Log()
        await overrides.replace(awaiting: { $0.log }, scope: .singleton, with: { double })
        await overrides.apply {
            #expect(await app.repository.log === double)
            #expect(app.log === double)
        }
        #expect(app.log !== double)
    }

    @Test func aClosureThatReadsNoDefinitionStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = AsyncAssembly()
            await Overrides(of: app).replace(awaiting: { _ in Log() }, with: { Log() })
        }
        #expect(stderr(of: result).contains("reads no definition"))
    }
}

private final class Suspending: @unchecked Sendable {
    var partner: Suspending?
    var isHooked = false
}

/// A body that uses its `definition` only after it has suspended.
private final class SuspendingAssembly: Assembly, @unchecked Sendable {
    var suspending: Suspending {
        get async {
            await define { definition in
                await Task.yield()
                let suspending = definition *~> Suspending()
                await Task.yield()
                definition.afterWiring { $0.isHooked = true }
                suspending.partner = await self.partner
                return suspending
            }
        }
    }

    var partner: Suspending {
        get async {
            await define { definition in
                let partner = definition *~> Suspending()
                partner.partner = await self.suspending  // the instance being wired above
                return partner
            }
        }
    }
}
