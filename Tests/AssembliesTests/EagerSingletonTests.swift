import Assemblies
import Testing

/// The order in which definition bodies ran, kept by the family that ran them.
private final class EagerLog: @unchecked Sendable {
    // @unchecked: `entries` is only touched while holding `lock`.
    private let lock = NSLockish()
    private var recorded: [String] = []

    func append(_ entry: String) {
        lock.withLock { recorded.append(entry) }
    }

    var entries: [String] { lock.withLock { recorded } }
}

private final class EagerService {
    let name: String
    let dependency: EagerService?
    init(name: String, dependency: EagerService? = nil) {
        self.name = name
        self.dependency = dependency
    }
}

private final class EagerAppAssembly: Assembly, @unchecked Sendable {
    let log = EagerLog()

    var core: EagerCoreAssembly { collaborator() }

    // Declared in another order than the one `buildEagerSingletons()` lists them in.
    var database: EagerService {
        define(scope: .singleton) {
            log.append("database")
            return EagerService(name: "database")
        }
    }

    var metrics: EagerService {
        define(scope: .singleton) {
            log.append("metrics")
            return EagerService(name: "metrics")
        }
    }

    var analytics: EagerService {
        define(scope: .singleton) {
            log.append("analytics")
            return EagerService(name: "analytics", dependency: self.database)
        }
    }

    /// A singleton that isn't listed: it stays lazy.
    var cache: EagerService {
        define(scope: .singleton) {
            log.append("cache")
            return EagerService(name: "cache")
        }
    }

    /// Read by the list, but an object graph instance: activation doesn't keep it.
    var screen: EagerService {
        define {
            log.append("screen")
            return EagerService(name: "screen")
        }
    }

    override func buildEagerSingletons() {
        _ = metrics
        _ = database
        _ = analytics
        core.buildEagerSingletons()
    }
}

private final class EagerCoreAssembly: Assembly, @unchecked Sendable {
    var app: EagerAppAssembly { collaborator() }

    var clock: EagerService {
        define(scope: .singleton) {
            app.log.append("clock")
            return EagerService(name: "clock")
        }
    }

    var calendar: EagerService {
        define(scope: .singleton) {
            app.log.append("calendar")
            return EagerService(name: "calendar", dependency: self.clock)
        }
    }

    override func buildEagerSingletons() {
        _ = calendar
    }
}

private final class EagerScreenAssembly: Assembly, @unchecked Sendable {
    let log = EagerLog()

    var screen: EagerService {
        define {
            log.append("screen")
            return EagerService(name: "screen")
        }
    }

    override func buildEagerSingletons() {
        _ = screen
    }
}

@Suite struct EagerSingletonTests {
    @Test func activationBuildsTheListedSingletonsInTheirOrderBeforeAnyRead() {
        let app = EagerAppAssembly()
        #expect(app.log.entries.isEmpty)
        app.activate()
        #expect(app.log.entries == ["metrics", "database", "analytics", "calendar", "clock"])
    }

    @Test func readsAfterActivationGetTheEagerSingletonsWithoutBuildingThemAgain() {
        let app = EagerAppAssembly()
        app.activate()
        let built = app.log.entries
        let analytics = app.analytics
        #expect(analytics.dependency === app.database)
        #expect(app.metrics === app.metrics)
        #expect(app.core.calendar.dependency === app.core.clock)
        #expect(app.log.entries == built)
    }

    @Test func singletonsThatAreNotListedStayLazy() {
        let app = EagerAppAssembly()
        app.activate()
        #expect(!app.log.entries.contains("cache"))
        let cache = app.cache
        #expect(app.log.entries.filter { $0 == "cache" }.count == 1)
        #expect(app.cache === cache)
        #expect(app.log.entries.filter { $0 == "cache" }.count == 1)
    }

    @Test func activatingTwiceBuildsNothingAgain() {
        let app = EagerAppAssembly()
        app.activate()
        app.activate()
        #expect(app.log.entries == ["metrics", "database", "analytics", "calendar", "clock"])
    }

    @Test func activatingFromACollaboratorAfterTheRootBuildsNothingAgain() {
        let app = EagerAppAssembly()
        app.activate()
        app.core.activate()
        #expect(app.log.entries == ["metrics", "database", "analytics", "calendar", "clock"])
    }

    @Test func activatingFromACollaboratorRunsTheRootsListOnce() {
        let app = EagerAppAssembly()
        app.core.activate()
        #expect(app.log.entries == ["metrics", "database", "analytics", "calendar", "clock"])
        app.activate()
        app.core.activate()
        #expect(app.log.entries == ["metrics", "database", "analytics", "calendar", "clock"])
    }

    @Test func aFamilyNeverActivatedBuildsThemLazilyOnFirstRead() {
        let app = EagerAppAssembly()
        #expect(app.log.entries.isEmpty)
        let database = app.database
        #expect(app.log.entries == ["database"])
        let clock = app.core.clock
        #expect(app.log.entries == ["database", "clock"])
        #expect(app.database === database)
        #expect(app.core.clock === clock)
        #expect(app.log.entries == ["database", "clock"])
    }

    @Test func collaboratorsEagerSingletonsAreReachedFromTheRootsList() {
        let app = EagerAppAssembly()
        app.activate()
        #expect(app.log.entries.contains("calendar"))
        #expect(app.log.entries.contains("clock"))
        let calendar = app.core.calendar
        #expect(calendar.dependency === app.core.clock)
        #expect(app.log.entries.filter { $0 == "calendar" || $0 == "clock" }.count == 2)
    }

    @Test func activationBuildsOnlyItsOwnFamilysSingletons() {
        let app = EagerAppAssembly()
        let other = EagerAppAssembly()
        app.activate()
        #expect(other.log.entries.isEmpty)
        other.activate()
        #expect(other.log.entries == ["metrics", "database", "analytics", "calendar", "clock"])
        #expect(app.database !== other.database)
    }

    @Test func definitionsReadByTheListKeepTheirScope() {
        let assembly = EagerScreenAssembly()
        assembly.activate()
        #expect(assembly.log.entries == ["screen"])
        _ = assembly.screen
        #expect(assembly.log.entries == ["screen", "screen"])
    }

    @Test func activationInsideOverridesBuildsTheirSingletonsAndLeavesTheFamilyUnactivated() {
        let app = EagerAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.metrics) { EagerService(name: "metrics double") }
        let insideMetrics = overrides.apply {
            app.activate()
            let logged = app.log.entries
            #expect(!logged.contains("metrics"))
            #expect(logged.contains("database"))
            return app.metrics
        }
        #expect(insideMetrics.name == "metrics double")
        let loggedInside = app.log.entries.count
        app.activate()
        #expect(app.log.entries.count > loggedInside)
        #expect(app.log.entries.contains("metrics"))
        #expect(app.metrics !== insideMetrics)
    }
}
