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

    /// Read only by `misuseIsReportedAndTheOtherRootsAreStillRead`, which counts its shutdowns.
    var archive: WiringStore {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in WiringCheckTests.archiveShutdowns.withLock { $0 += 1 } }
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

    /// Misuses the library while it is built, the first time only: the stopped read leaves it
    /// claimed, half-built, in its sandbox.
    var flaky: WiringStore {
        define(scope: .singleton) {
            if WiringCheckTests.flakyMisuses.withLock({ $0.popLast() ?? false }) { _ = self.twoLabels }
            return WiringStore()
        }
    }

    func level(_ depth: Int) -> WiringAudit {
        define(arguments: depth) {
            _ = self.level(depth + 1)
            return WiringAudit()
        }
    }

    /// One explicit key in two stored scopes: the store stops the second read while it holds its lock.
    var sharedPool: WiringStore { define(withKey: "pool", scope: .singleton) { WiringStore() } }
    var weakPool: WiringStore { define(withKey: "pool", scope: .weakSingleton) { WiringStore() } }

    /// An endless recursion, which the depth guard stops.
    var endless: WiringAudit { define { self.level(0) } }
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
    static let flakyMisuses = Guarded<[Bool]>([])
    static let archiveShutdowns = Guarded(0)

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

    @Test(.enabled(if: misuseIsReported)) func misuseIsReportedAndTheOtherRootsAreStillRead() async {
        let app = WiringAppAssembly()
        let check = WiringCheck(of: app)
        check.read(\.store)
        check.read(\.twoLabels)
        check.read(\.archive)
        check.read("handler(for: \"notes\")") { app in _ = try app.handler(for: "notes") }
        let report = await check.run()
        #expect(report.problems.count == 2, "\(report)")
        guard case .misuse(let root, let message) = report.problems.first else {
            Issue.record("the misuse is reported: \(report)")
            return
        }
        #expect(root == "WiringAppAssembly.twoLabels", "named by the definition the key path reads")
        #expect(message.contains("WiringAppAssembly.label(_:) was read twice in one object graph"))
        #expect(message.contains("To fix this"))
        #expect(report.description.contains("- reading WiringAppAssembly.twoLabels stopped: "))
        guard case .threw(let threwRoot, _) = report.problems.last else {
            Issue.record("the root after it is read: \(report)")
            return
        }
        #expect(threwRoot == "handler(for: \"notes\")")
        #expect(Self.archiveShutdowns.withLock { $0 } == 1, "the archive, read after the misuse, is shut down")
    }

    @Test(.enabled(if: misuseIsReported)) func aMisuseInAnAsyncReadOrItsChildTasksIsReported() async {
        let check = WiringCheck(of: WiringAppAssembly())
        check.read("session, then twoLabels") { app in
            _ = await app.session
            _ = app.twoLabels
        }
        check.read("twoLabels in a child task") { app in
            async let labels = app.twoLabels
            _ = await labels
        }
        let report = await check.run()
        #expect(report.problems.count == 2, "\(report)")
        for problem in report.problems {
            guard case .misuse(_, let message) = problem else {
                Issue.record("a misuse: \(problem)")
                continue
            }
            #expect(message.contains("WiringAppAssembly.label(_:) was read twice"))
        }
    }

    @Test(.enabled(if: misuseIsReported)) func anEndlessRecursionIsReported() async {
        let check = WiringCheck(of: WiringAppAssembly())
        check.read(\.endless)
        let report = await check.run()
        guard case .misuse(_, let message) = report.problems.first else {
            Issue.record("the depth guard's stop is reported: \(report)")
            return
        }
        #expect(message.contains("it began with WiringAppAssembly.endless and has reached WiringAppAssembly.level(_:)"))
    }

    @Test(.enabled(if: misuseIsReported)) func theRootsAfterAStopAreReadInANewSandbox() async {
        Self.flakyMisuses.withLock { $0 = [false, true] }  // the first read misuses, the second doesn't
        let check = WiringCheck(of: WiringAppAssembly())
        check.read(\.flaky)
        check.read(\.flaky)  // would wait for ever for the stopped read's instance in its sandbox
        let finished = await completes {
            let report = await check.run()
            let misuses = report.problems.filter { if case .misuse = $0 { true } else { false } }
            #expect(misuses.count == 1, "the first read only: \(report)")
        }
        #expect(finished)
    }

    @Test(.enabled(if: misuseIsReported)) func aMisuseFoundUnderTheSandboxStoresLockLetsItGo() async {
        let check = WiringCheck(of: WiringAppAssembly())
        check.read(\.sharedPool)
        check.read(\.weakPool)  // stops in the store; the check then shuts that store's instances down
        let finished = await completes {
            let report = await check.run()
            guard case .misuse(let root, let message) = report.problems.first else {
                Issue.record("the scope mismatch is reported: \(report)")
                return
            }
            #expect(root == "WiringAppAssembly.weakPool (key \"pool\")")
            #expect(message.contains("the key \"pool\" is used with two scopes"))
        }
        #expect(finished, "the stopped read let go of the store's lock")
    }

    @Test func aMisuseOffTheLaneStillStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let check = WiringCheck(of: WiringAppAssembly())
            check.read("twoLabels in a task of its own") { app in
                _ = await Task { app.twoLabels }.value
            }
            _ = await check.run()
        }
        #expect(stderr(of: result).contains("WiringAppAssembly.label(_:) was read twice in one object graph"))
    }
}
