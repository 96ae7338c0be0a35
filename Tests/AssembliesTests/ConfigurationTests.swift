import Assemblies
import Foundation
import Testing

// Configuring a family: a root created with values that every assembly of the family reads.

private struct ConfiguredSettings: Sendable {
    let databaseURL: String
    let poolSize: Int
}

private protocol ConfiguredEnvironment: Sendable {
    var name: String { get }
}

private struct Production: ConfiguredEnvironment {
    var name: String { "production" }
}

private struct Staging: ConfiguredEnvironment {
    var name: String { "staging" }
}

private final class ConfiguredDatabase {
    let url: String
    let poolSize: Int
    init(url: String, poolSize: Int) {
        self.url = url
        self.poolSize = poolSize
    }
}

private final class ConfiguredReporter {
    let environment: String
    let database: ConfiguredDatabase
    init(environment: String, database: ConfiguredDatabase) {
        self.environment = environment
        self.database = database
    }
}

private final class ConfiguredStorageAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var database: ConfiguredDatabase {
        define(scope: .singleton) {
            self.counter.tick()
            let settings = self.configuration(ConfiguredSettings.self)
            return ConfiguredDatabase(url: settings.databaseURL, poolSize: settings.poolSize)
        }
    }
}

private class ConfiguredAppAssembly: Assembly, @unchecked Sendable {
    var storage: ConfiguredStorageAssembly { collaborator() }

    /// A typed accessor, the way an assembly names what it reads.
    var settings: ConfiguredSettings { configuration() }

    var reporter: ConfiguredReporter {
        define {
            ConfiguredReporter(
                environment: self.configuration((any ConfiguredEnvironment).self).name,
                database: self.storage.database
            )
        }
    }

    var url: URL { define { self.configuration() } }
}

/// A subclass that overrides `init()`, and reads its configuration there.
private final class ConfiguredInitAssembly: ConfiguredAppAssembly, @unchecked Sendable {
    let poolSizeAtInit: Int?

    required init() {
        poolSizeAtInit = nil
        super.init()
    }
}

/// A root whose stored property is another root, created before the configured root's `init()`.
private final class ConfiguredNestingAssembly: Assembly, @unchecked Sendable {
    let other = ConfiguredAppAssembly()
}

private let settings = ConfiguredSettings(databaseURL: "postgres://localhost/app", poolSize: 4)

@Suite struct ConfigurationTests {
    @Test func theRootAndItsCollaboratorsReadTheValues() {
        let app = ConfiguredAppAssembly(configuration: settings, Production() as any ConfiguredEnvironment)
        #expect(app.settings.databaseURL == "postgres://localhost/app")
        let reporter = app.reporter
        #expect(reporter.environment == "production")
        #expect(reporter.database.url == "postgres://localhost/app")
        #expect(reporter.database.poolSize == 4)
        #expect(app.storage.configuration(ConfiguredSettings.self).poolSize == 4)
        #expect(app.reporter.database === reporter.database, "a singleton built from the configuration")
        #expect(app.storage.counter["database"] == 1)
    }

    @Test func aProtocolReadsTheOneValueThatIsOne() {
        let app = ConfiguredAppAssembly(configuration: settings, Staging())
        #expect(app.reporter.environment == "staging", "stored as Staging, read as any ConfiguredEnvironment")
        #expect(app.configuration(Staging.self).name == "staging")
    }

    @Test func familiesKeepTheirOwnConfiguration() {
        let first = ConfiguredAppAssembly(configuration: settings, Production())
        let second = ConfiguredAppAssembly(
            configuration: ConfiguredSettings(databaseURL: "sqlite::memory:", poolSize: 1),
            Staging()
        )
        #expect(first.reporter.database.url == "postgres://localhost/app")
        #expect(second.reporter.database.url == "sqlite::memory:")
        #expect(second.reporter.environment == "staging")
    }

    @Test func aSubclassThatOverridesInitStillHasTheInitializer() {
        let app = ConfiguredInitAssembly(configuration: settings, Production())
        #expect(app.settings.poolSize == 4)
        #expect(app.poolSizeAtInit == nil)
        #expect(app.storage.database.poolSize == 4)
    }

    @Test func aRootCreatedBeforeTheConfiguredRootDoesNotTakeItsValues() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let nesting = ConfiguredNestingAssembly(configuration: settings)
            precondition(nesting.configuration(ConfiguredSettings.self).poolSize == 4)
            _ = nesting.other.settings  // the other root was created with init(): it has no values
        }
        let output = stderr(of: result)
        #expect(!output.contains("Precondition failed"), "\(output)")
        #expect(
            output.contains(
                "ConfiguredAppAssembly read configuration(ConfiguredSettings.self), but the family has no value "
                    + "of that type: its root, ConfiguredAppAssembly, was created with `init()`, without "
                    + "configuration. To fix this, create the root with its values: "
                    + "`ConfiguredAppAssembly(configuration: ConfiguredSettings(...))`."
            ),
            "\(output)"
        )
    }

    @Test func theValuesAreReadFromManyThreads() {
        let app = ConfiguredAppAssembly(configuration: settings, Production())
        let databases = Guarded<Set<ObjectIdentifier>>([])
        onThreads(8) { _ in
            for _ in 0..<200 {
                let database = app.reporter.database
                precondition(database.url == "postgres://localhost/app")
                databases.withLock { $0.insert(ObjectIdentifier(database)) }
            }
        }
        #expect(databases.withLock { $0.count } == 1)
        #expect(app.storage.counter["database"] == 1)
    }

    @Test func aCollaboratorKeptBeyondItsRootStillReadsTheValues() {
        var app: ConfiguredAppAssembly? = ConfiguredAppAssembly(configuration: settings)
        let storage = app!.storage
        app = nil
        #expect(storage.configuration(ConfiguredSettings.self).databaseURL == "postgres://localhost/app")
    }

    @Test func aValueTheFamilyLacksStopsWithTheTypesItHas() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ConfiguredAppAssembly(configuration: settings).url
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "ConfiguredAppAssembly read configuration(URL.self), but the family has no value of that type: "
                    + "ConfiguredAppAssembly was created with ConfiguredSettings and no URL. To fix this, create it "
                    + "with one more value: `ConfiguredAppAssembly(configuration: ..., URL(...))`."
            ),
            "\(output)"
        )
    }

    @Test func twoValuesOfOneTypeStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ConfiguredAppAssembly(configuration: settings, Production(), settings)
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "ConfiguredAppAssembly(configuration:) was given two values of type ConfiguredSettings, but a "
                    + "family keeps one value of each type"
            ),
            "\(output)"
        )
    }

    @Test func aProtocolThatSeveralValuesAreStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = ConfiguredAppAssembly(configuration: Production(), Staging())
            _ = app.configuration((any ConfiguredEnvironment).self)
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "ConfiguredAppAssembly read configuration(ConfiguredEnvironment.self), but several of the "
                    + "family's values are one: Production, Staging. To fix this, ask for the exact type of one of them."
            ),
            "\(output)"
        )
    }
}
