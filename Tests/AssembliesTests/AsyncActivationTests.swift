import Assemblies
import Testing

// `try await activate()`: the synchronous eager singletons, then those `buildAsyncEagerSingletons()`
// awaits, in its order; once, unless it threw.

private final class Store: @unchecked Sendable {}
private final class Settings: @unchecked Sendable {
    let store: Store
    init(store: Store) { self.store = store }
}
private final class Catalog: @unchecked Sendable {}

private struct Unreachable: Error {}

private final class ActivatedAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let order = Guarded<[String]>([])
    let failuresLeft = Guarded(0)
    let activatesWithin = Guarded(false)

    var store: Store {
        define(scope: .singleton) {
            order.withLock { $0.append("store") }
            counter.tick("store")
            return Store()
        }
    }

    var settings: Settings {
        get async throws {
            try await define(scope: .singleton) {
                await Task.yield()
                if failuresLeft.withLock({ left in
                    defer { left = max(left - 1, 0) }
                    return left > 0
                }) {
                    throw Unreachable()
                }
                if activatesWithin.withLock({ $0 }) { try await self.activate() }
                order.withLock { $0.append("settings") }
                counter.tick("settings")
                return Settings(store: self.store)
            }
        }
    }

    var catalog: Catalog {
        get async {
            await define(scope: .singleton) {
                await Task.yield()
                order.withLock { $0.append("catalog") }
                counter.tick("catalog")
                return Catalog()
            }
        }
    }

    /// How many times each body ran.
    var builds: [Int] { [counter["store"], counter["settings"], counter["catalog"]] }

    override func buildEagerSingletons() {
        _ = store
    }

    override func buildAsyncEagerSingletons() async throws {
        _ = try await settings
        _ = await catalog
    }
}

@Suite("Async activation", .timeLimit(.minutes(1)))
struct AsyncActivationTests {
    @Test func buildsTheSynchronousEagerSingletonsThenTheAsyncOnesInOrder() async throws {
        let app = ActivatedAssembly()
        try await app.activate()
        #expect(app.order.withLock { $0 } == ["store", "settings", "catalog"])
        try await app.activate()
        #expect(app.builds == [1, 1, 1])
        #expect(try await app.settings.store === app.store)
    }

    @Test func aSynchronousActivationLeavesTheAsyncEagerSingletonsForTheAsyncOne() async throws {
        let app = ActivatedAssembly()
        let activateSynchronously: () -> Void = app.activate
        activateSynchronously()
        #expect(app.builds == [1, 0, 0])
        try await app.activate()
        #expect(app.builds == [1, 1, 1])
    }

    @Test func anActivationThatThrewRunsAgain() async throws {
        let app = ActivatedAssembly()
        app.failuresLeft.withLock { $0 = 1 }
        await #expect(throws: Unreachable.self) { try await app.activate() }
        #expect(app.builds == [1, 0, 0])
        try await app.activate()
        #expect(app.order.withLock { $0 } == ["store", "settings", "catalog"])
    }

    @Test func tasksActivatingTogetherBuildEachSingletonOnce() async throws {
        let app = ActivatedAssembly()
        let finished = await completes {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try? await app.activate()
                        #expect(app.counter["catalog"] == 1)
                    }
                }
            }
        }
        #expect(finished)
        #expect(app.builds == [1, 1, 1])
    }

    @Test func anActivationFromWithinReturnsAtOnce() async throws {
        let app = ActivatedAssembly()
        app.activatesWithin.withLock { $0 = true }
        let finished = await completes { try? await app.activate() }
        #expect(finished)
        #expect(app.builds == [1, 1, 1])
    }

    @Test func underOverridesItBuildsTheOverridesSingletonsAndLeavesTheFamilyUnactivated() async throws {
        let app = ActivatedAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.store) { Store() }
        try await overrides.apply {
            try await app.activate()
            try await app.activate()
        }
        #expect(app.builds == [0, 1, 1])
        try await app.activate()
        #expect(app.builds == [1, 2, 2])
    }
}
