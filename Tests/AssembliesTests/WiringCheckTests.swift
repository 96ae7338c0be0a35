import Assemblies
import Testing

private final class WiringStore: Sendable {}
private final class WiringAudit {}
private final class WiringCache {
    let audit: WiringAudit
    init(audit: WiringAudit) { self.audit = audit }
}
private final class WiringHandler {
    let route: String
    let store: WiringStore
    init(route: String, store: WiringStore) {
        self.route = route
        self.store = store
    }
}

private struct WiringRouteError: Error, Equatable {
    let route: String
}

private final class WiringAppAssembly: Assembly, @unchecked Sendable {
    var store: WiringStore { define(scope: .singleton) { WiringStore() } }

    var audit: WiringAudit { define { WiringAudit() } }

    /// Keeps the first graph's audit: a captive dependency.
    var cache: WiringCache { define(scope: .singleton) { WiringCache(audit: self.audit) } }

    func handler(for route: String) throws(WiringRouteError) -> WiringHandler {
        try define(arguments: route) { () throws(WiringRouteError) in
            guard route.hasPrefix("/") else { throw WiringRouteError(route: route) }
            return WiringHandler(route: route, store: self.store)
        }
    }

    var pool: WiringStore {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in WiringCheckTests.shutdowns.withLock { $0 += 1 } }
            return WiringStore()
        }
    }

    var session: WiringStore {
        get async {
            await define(scope: .singleton) {
                await Task.yield()
                return WiringStore()
            }
        }
    }

    func label(_ name: String) -> String { define { name } }

    /// Reads a method with parameters twice without `arguments:`: misuse, which stops.
    var twoLabels: (String, String) { define { (self.label("a"), self.label("b")) } }
}

@Suite("Checking the wiring before serving") struct WiringCheckTests {
    @Test func aFamilyWiredAsItShouldBeHasNoProblem() async {
        let app = WiringAppAssembly()
        let check = WiringCheck(of: app)
        check.read(\.store)
        check.read("handler(for:)") { app in _ = try app.handler(for: "/notes") }
        check.read("session") { app in _ = await app.session }
        let report = await check.run()
        #expect(report.problems.isEmpty, "\(report)")
        #expect(report.description == "The wiring check found no problem.")
    }

    @Test func theCheckBuildsItsOwnSingletonsAndPublishesNone() async {
        let app = WiringAppAssembly()
        let checked = Guarded<WiringStore?>(nil)
        let check = WiringCheck(of: app)
        check.read("store") { app in checked.withLock { $0 = app.store } }
        _ = await check.run()
        let live = app.store
        #expect(checked.withLock { $0 } != nil)
        #expect(checked.withLock { $0 } !== live, "the live family builds its own")
        #expect(app.store === live)
    }

    @Test func everyRootIsReadAndWhatTheyThrowIsListed() async {
        let app = WiringAppAssembly()
        let check = WiringCheck(of: app)
        check.read("handler(for: notes)") { app in _ = try app.handler(for: "notes") }
        check.read("handler(for: users)") { app in _ = try app.handler(for: "users") }
        check.read(\.store)
        let report = await check.run()
        #expect(report.problems.count == 2)
        guard case .threw(let root, let error) = report.problems.first else {
            Issue.record("expected an error, got \(report)")
            return
        }
        #expect(root == "handler(for: notes)")
        #expect(error as? WiringRouteError == WiringRouteError(route: "notes"))
        #expect(report.description.contains("- reading handler(for: users) threw WiringRouteError(route: \"users\")"))
    }

    @Test func captiveDependenciesAreFoundWhateverTheFamilysModeAndLeaveItAsItWas() async {
        let app = WiringAppAssembly()
        let live = Guarded<[String]>([])
        app.checkCaptiveDependencies(.report { captive in live.withLock { $0.append(captive.description) } })
        let check = WiringCheck(of: app)
        check.read(\.cache)
        let report = await check.run()
        guard case .captiveDependency(let captive) = report.problems.first, report.problems.count == 1 else {
            Issue.record("expected one captive dependency, got \(report)")
            return
        }
        #expect(captive.chain.map(\.description) == ["WiringAppAssembly.cache", "WiringAppAssembly.audit"])
        #expect(live.withLock { $0 }.isEmpty, "the family's handler heard nothing of the check")
        _ = app.cache
        #expect(live.withLock { $0.count } == 1, "and still reports the live read")
    }

    @Test func captiveDependenciesAreFoundEvenInAFamilyThatIgnoresThem() async {
        let app = WiringAppAssembly()
        app.checkCaptiveDependencies(.ignore)
        let check = WiringCheck(of: app)
        check.read(\.cache)
        let report = await check.run()
        #expect(report.problems.count == 1)
        #expect(
            report.description.contains(
                "captive dependency: WiringAppAssembly.cache (singleton) reads WiringAppAssembly.audit"
            )
        )
    }

    @Test func theOverridesGivenApplyAndThoseUnusedAreListed() async {
        let app = WiringAppAssembly()
        let overrides = Overrides(of: app)
        let fake = WiringStore()
        overrides.replace(\.store) { fake }
        overrides.replace(\.audit) { WiringAudit() }
        let seen = Guarded<WiringStore?>(nil)
        let check = WiringCheck(of: app, applying: overrides)
        check.read("handler(for:)") { app in seen.withLock { $0 = try? app.handler(for: "/notes").store } }
        let report = await check.run()
        #expect(seen.withLock { $0 } === fake)
        guard case .unusedOverride(let description) = report.problems.first, report.problems.count == 1 else {
            Issue.record("expected one unused override, got \(report)")
            return
        }
        #expect(description == "WiringAppAssembly.audit")
    }

    static let shutdowns = Guarded(0)

    @Test func theCheckShutsDownTheInstancesItBuilt() async {
        let app = WiringAppAssembly()
        let check = WiringCheck(of: app)
        check.read(\.pool)
        let before = Self.shutdowns.withLock { $0 }
        let report = await check.run()
        #expect(report.problems.isEmpty, "\(report)")
        #expect(Self.shutdowns.withLock { $0 } == before + 1)
        _ = app.pool
        #expect(Self.shutdowns.withLock { $0 } == before + 1, "the live family's pool is its own")
    }

    @Test func misuseStopsWhereTheCheckReadsIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let check = WiringCheck(of: WiringAppAssembly())
            check.read(\.twoLabels)
            _ = await check.run()
        }
        #expect(stderr(of: result).contains("WiringAppAssembly.label(_:) was read twice in one object graph"))
    }
}
