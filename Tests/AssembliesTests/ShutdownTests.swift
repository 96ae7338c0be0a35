import Foundation
import Testing

@testable import Assemblies

/// What the shutdowns of a test's family did, in order.
private final class ShutdownLog: Sendable {
    private let entries = Guarded<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private final class ShutdownPool: Sendable {}
private final class ShutdownClient: Sendable {
    let pool: ShutdownPool
    init(pool: ShutdownPool) { self.pool = pool }
}
private final class ShutdownSession: Sendable {}
private final class ShutdownRequest {}

private final class ShutdownTab: @unchecked Sendable {
    let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

private struct ShutdownFailed: Error, Equatable {
    let name: String
}

/// A collaborator, through which a test shuts the family down while its root is released.
private final class ShutdownPeerAssembly: Assembly, @unchecked Sendable {
    var log: ShutdownLog { configuration(ShutdownLog.self) }
    var gate: Gate { configuration(Gate.self) }

    var slowPeerPool: ShutdownPool {
        get async {
            await define(scope: .singleton) { definition in
                definition.onShutdown { _ in self.log.append("peer pool") }
                self.log.append("building peer pool")
                await self.gate.wait()
                return ShutdownPool()
            }
        }
    }
}

private final class ShutdownAssembly: Assembly, @unchecked Sendable {
    var log: ShutdownLog { configuration(ShutdownLog.self) }
    var gate: Gate { configuration(Gate.self) }
    var peer: ShutdownPeerAssembly { collaborator() }

    var pool: ShutdownPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { pool in
                self.log.append("pool")
                #expect(pool === self.pool, "a shutdown may read the family")
            }
            return ShutdownPool()
        }
    }

    var client: ShutdownClient {
        define(scope: .singleton) { definition in
            definition.onShutdown { client in self.log.append(client.pool === self.pool ? "client" : "client?") }
            return ShutdownClient(pool: self.pool)
        }
    }

    var failingCache: ShutdownPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in
                self.log.append("cache")
                throw ShutdownFailed(name: "cache")
            }
            return ShutdownPool()
        }
    }

    var failingQueue: ShutdownPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in
                self.log.append("queue")
                throw ShutdownFailed(name: "queue")
            }
            return ShutdownPool()
        }
    }

    var session: ShutdownSession {
        define(scope: .resettable("shutdown-session")) { definition in
            definition.onShutdown { _ in self.log.append("session") }
            return ShutdownSession()
        }
    }

    var slowPool: ShutdownPool {
        get async {
            await define(scope: .singleton) { definition in
                definition.onShutdown { _ in self.log.append("slow pool") }
                self.log.append("building slow pool")
                await self.gate.wait()
                return ShutdownPool()
            }
        }
    }

    var throwingBody: ShutdownPool {
        get throws(ShutdownFailed) {
            try define(scope: .singleton) { (definition: Definition<ShutdownPool>) throws(ShutdownFailed) in
                definition.onShutdown { _ in self.log.append("never built") }
                throw ShutdownFailed(name: "body")
            }
        }
    }

    var twoStepPool: ShutdownPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in self.log.append("drain") }
            definition.onShutdown { _ in
                self.log.append("stop accepting")
                try await self.shutDown()  // from a shutdown: returns at once
            }
            return ShutdownPool()
        }
    }

    var shutsDownWhileBuilt: ShutdownPool {
        get async {
            await define(scope: .singleton) {
                try? await self.shutDown()
                return ShutdownPool()
            }
        }
    }

    /// Built by a shutdown, while the family shuts down: it is shut down too.
    var lateCache: ShutdownPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in self.log.append("late cache") }
            return ShutdownPool()
        }
    }

    var readsLateInShutdown: ShutdownPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in
                self.log.append("reader")
                _ = self.lateCache
            }
            return ShutdownPool()
        }
    }

    /// A resettable instance whose deinit reads the family.
    var tab: ShutdownTab {
        define(scope: .resettable("shutdown-tab")) { definition in
            definition.onShutdown { _ in self.log.append("tab") }
            return ShutdownTab(onDeinit: { self.log.append(self.pool === self.pool ? "tab released" : "?") })
        }
    }

    var requestProvider: @Sendable () -> ShutdownPool { provider(\.pool) }

    /// Its body waits for a child task that shuts the family down, which waits for it.
    var waitsForItsShutdown: ShutdownPool {
        get async {
            await define(scope: .singleton) {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await self.shutDown() }
                }
                return ShutdownPool()
            }
        }
    }

    var request: ShutdownRequest {
        define { definition in
            definition.onShutdown { _ in }
            return ShutdownRequest()
        }
    }
}

@Suite("Shutting a family down") struct ShutdownTests {
    private func makeAssembly() -> (ShutdownAssembly, ShutdownLog, Gate) {
        let log = ShutdownLog()
        let gate = Gate()
        return (ShutdownAssembly(configuration: log, gate), log, gate)
    }

    @Test func instancesShutDownOnceTheLastBuiltFirst() async throws {
        let (app, log, _) = makeAssembly()
        _ = app.client  // builds the pool first, then the client
        try await app.shutDown()
        #expect(log.all == ["client", "pool"])
        try await app.shutDown()
        #expect(log.all == ["client", "pool"], "a second call shuts nothing down again")
    }

    @Test func onlyWhatWasBuiltShutsDown() async throws {
        let (app, log, _) = makeAssembly()
        _ = app.pool
        #expect(throws: ShutdownFailed(name: "body")) { _ = try app.throwingBody }
        try await app.shutDown()
        #expect(log.all == ["pool"], "neither the client, never read, nor a body that threw")
    }

    @Test func everyShutdownRunsAndTheirErrorsAreThrownTogether() async {
        let (app, log, _) = makeAssembly()
        _ = app.failingCache
        _ = app.pool
        _ = app.failingQueue
        do {
            try await app.shutDown()
            Issue.record("the shutdown should have thrown")
        } catch {
            #expect(
                error.failures.map(\.definition) == ["ShutdownAssembly.failingQueue", "ShutdownAssembly.failingCache"]
            )
            #expect(
                error.failures.map { $0.error as? ShutdownFailed } == [
                    ShutdownFailed(name: "queue"), ShutdownFailed(name: "cache"),
                ]
            )
            #expect(error.description.contains("ShutdownAssembly.failingQueue: ShutdownFailed(name: \"queue\")"))
        }
        #expect(log.all == ["queue", "pool", "cache"])
    }

    @Test func anInstanceAResetDroppedShutsDownWithItsFamily() async throws {
        let (app, log, _) = makeAssembly()
        let first = app.session
        app.reset(.resettable("shutdown-session"))
        let second = app.session
        #expect(first !== second)
        try await app.shutDown()
        #expect(log.all == ["session", "session"])
    }

    @Test func theShutdownWaitsForAStoredInstanceBeingBuilt() async throws {
        let (app, log, gate) = makeAssembly()
        let building = Task { await app.slowPool }
        #expect(await until { log.all == ["building slow pool"] })
        let shutdown = Task { try await app.shutDown() }
        #expect(await until { app.family.singletons.isWaitingToDrain })
        #expect(log.all == ["building slow pool"], "nothing shuts down while an instance is being built")
        gate.open()
        _ = await building.value
        try await shutdown.value
        #expect(log.all == ["building slow pool", "slow pool"])
    }

    @Test func anInstanceFinishedAfterTheRootsReleaseDuringAShutdownIsShutDown() async throws {
        let log = ShutdownLog()
        let gate = Gate()
        var root: ShutdownAssembly? = ShutdownAssembly(configuration: log, gate)
        let peer = root!.peer
        let building = Task { await peer.slowPeerPool }
        #expect(await until { log.all == ["building peer pool"] })
        let shutdown = Task { try await peer.shutDown() }
        #expect(await until { peer.family.singletons.isWaitingToDrain })
        root = nil  // released while the shutdown waits for the build
        gate.open()
        _ = await building.value
        try await shutdown.value
        #expect(log.all == ["building peer pool", "peer pool"], "the shutdown still shuts it down")
    }

    @Test func aCallMadeWhileTheFamilyShutsDownWaitsForIt() async throws {
        let (app, log, gate) = makeAssembly()
        let building = Task { await app.slowPool }
        #expect(await until { log.all == ["building slow pool"] })
        let first = Task { try await app.shutDown() }
        #expect(await until { app.family.singletons.isWaitingToDrain })
        let second = Task {
            try await app.shutDown()
            return log.all
        }
        gate.open()
        _ = await building.value
        try await first.value
        #expect(
            try await second.value == ["building slow pool", "slow pool"],
            "the second call returned after the first"
        )
    }

    @Test func aReadAfterTheShutdownBeganStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let app = ShutdownAssembly(configuration: ShutdownLog(), Gate())
            _ = app.pool
            try? await app.shutDown()
            _ = app.client
        }
        let message = stderr(of: result)
        #expect(
            message.contains(
                "ShutdownAssembly.client was read after its family began to shut down (ShutdownAssembly.shutDown())"
            )
        )
        #expect(message.contains("stop what reads the family before shutting it down"))
    }

    @Test func aCachedSingletonReadAfterTheShutdownStopsToo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let app = ShutdownAssembly(configuration: ShutdownLog(), Gate())
            _ = app.pool
            _ = app.pool  // cached on this thread
            try? await app.shutDown()
            _ = app.pool
        }
        #expect(stderr(of: result).contains("ShutdownAssembly.pool was read after its family began to shut down"))
    }

    @Test func aShutdownInAnotherScopeStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ShutdownAssembly(configuration: ShutdownLog(), Gate()).request
        }
        let message = stderr(of: result)
        #expect(message.contains("ShutdownAssembly.request (objectGraph) declares a shutdown with onShutdown"))
        #expect(message.contains("give ShutdownAssembly.request the .singleton scope or a resettable one"))
    }

    @Test func theShutdownsOfOneInstanceRunTheLastDeclaredFirst() async throws {
        let (app, log, _) = makeAssembly()
        _ = app.pool
        _ = app.twoStepPool
        try await app.shutDown()
        #expect(log.all == ["stop accepting", "drain", "pool"])
    }

    @Test func aShutDownInsideAReadOfTheFamilyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            _ = await ShutdownAssembly(configuration: ShutdownLog(), Gate()).shutsDownWhileBuilt
        }
        let message = stderr(of: result)
        #expect(message.contains("shutDown() was called inside a read of the family of ShutdownAssembly"))
        #expect(message.contains("shut the family down from outside its reads"))
    }

    @Test func whatAShutdownBuildsIsShutDownToo() async throws {
        let (app, log, _) = makeAssembly()
        _ = app.readsLateInShutdown
        try await app.shutDown()
        #expect(log.all == ["reader", "late cache"])
    }

    @Test func anInstanceAResetDroppedIsReleasedInsideItsShutdownWhichMayReadTheFamily() async throws {
        let (app, log, _) = makeAssembly()
        _ = app.pool
        _ = app.tab
        app.reset(.resettable("shutdown-tab"))
        try await app.shutDown()
        #expect(log.all.prefix(2) == ["tab", "tab released"], "\(log.all)")
    }

    @Test func aProviderCalledAfterTheShutdownBeganStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let app = ShutdownAssembly(configuration: ShutdownLog(), Gate())
            let provide = app.requestProvider
            try? await app.shutDown()
            _ = provide()
        }
        let message = stderr(of: result)
        #expect(message.contains("a provider made by ShutdownAssembly (AssembliesTests/ShutdownTests.swift:"))
        #expect(message.contains("was called after its family began to shut down (ShutdownAssembly.shutDown())"))
    }

    @Test func aShutdownThatWaitsForABuildThatWaitsForItSaysSo() async {
        let result = await #expect(processExitsWith: .exitCode(75), observing: [\.standardErrorContent]) {
            Assembly.singletonWaitWarningDelay = 0.2
            stopsAfter(seconds: 3)
            _ = await ShutdownAssembly(configuration: ShutdownLog(), Gate()).waitsForItsShutdown
        }
        let message = stderr(of: result)
        #expect(message.contains("shutDown() has waited 0.2 s for ShutdownAssembly.waitsForItsShutdown, which task"))
        #expect(message.contains("shut the family down from outside its reads"))
    }

    @Test func shuttingAScopeDownShutsDownWhatItDroppedAtOnceAndOnce() async throws {
        let (app, log, _) = makeAssembly()
        let first = app.session
        try await app.shutDown(.resettable("shutdown-session"))
        #expect(log.all == ["session"], "shut down at once")
        #expect(app.session !== first, "and the scope was reset")
        try await app.shutDown()
        #expect(log.all == ["session", "session"], "the second session at the family's shutdown; the first not again")
    }

    // MARK: The state machine, without tasks

    @Test func theFirstCallShutsDownTheOthersWaitThenReturnAtOnce() {
        var shutdown = FamilyShutdown<Int>.running
        #expect(shutdown.call() == .shutDown)
        #expect(shutdown.call() == .waitForTheFirstCall)
        let first = shutdown.wait(1)
        #expect(first)
        #expect(shutdown.call() == .waitForTheFirstCall)
        let second = shutdown.wait(2)
        #expect(second)
        #expect(shutdown.finish() == [1, 2])
        #expect(shutdown.call() == .returnAtOnce)
        let afterwards = shutdown.wait(3)
        #expect(!afterwards, "nothing to wait for once shut down")
    }
}
