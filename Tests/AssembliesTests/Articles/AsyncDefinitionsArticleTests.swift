import Assemblies
import Testing

// The code blocks of the article *Defining Objects That Are Built Asynchronously*, each verbatim
// (`.ci/run docs` checks them), with what they need around them and tests of what the article says.

@Suite("Defining Objects That Are Built Asynchronously")
struct AsyncDefinitionsArticle {
    struct Settings: Sendable {
        let databaseURL: String
    }

    enum DatabaseError: Error {
        case unreachable(String)
    }

    final class Database: @unchecked Sendable {
        let url: String
        init(url: String) { self.url = url }

        static func connect(to url: String) async throws(DatabaseError) -> Database {
            await Task.yield()
            if url.isEmpty { throw .unreachable(url) }
            return Database(url: url)
        }
    }

    final class Logger: @unchecked Sendable {}

    final class Repository: @unchecked Sendable {
        let database: Database
        let logger: Logger
        init(database: Database, logger: Logger) {
            self.database = database
            self.logger = logger
        }
    }

    final class RemoteSettings: @unchecked Sendable {
        let database: Database
        init(database: Database) { self.database = database }
    }

    final class User: @unchecked Sendable {
        var session: Session?
    }

    final class Session: @unchecked Sendable {
        let logger: Logger
        var user: User?
        init(logger: Logger) { self.logger = logger }
    }

    class StorageAssembly: Assembly, @unchecked Sendable {
        var logger: Logger { define { Logger() } }

        var database: Database {
            get async throws {
                try await define(scope: .singleton) {
                    try await Database.connect(to: self.configuration(Settings.self).databaseURL)
                }
            }
        }

        var repository: Repository {
            get async throws {
                try await define { Repository(database: try await self.database, logger: self.logger) }
            }
        }

        var remoteSettings: RemoteSettings {
            get async throws {
                try await define(scope: .singleton) { RemoteSettings(database: try await self.database) }
            }
        }

        override func buildAsyncEagerSingletons() async throws {
            _ = try await database
            _ = try await remoteSettings
        }

        var session: Session {
            get async {
                await define { definition in
                    let session = definition *~> Session(logger: self.logger)
                    session.user = await self.user  // user.session === session
                    return session
                }
            }
        }

        var user: User {
            get async {
                await define { definition in
                    let user = definition *~> User()
                    user.session = await self.session
                    return user
                }
            }
        }
    }

    final class InMemoryStorageAssembly: StorageAssembly, @unchecked Sendable {
        override var database: Database {
            get async throws {
                define(scope: .singleton) { Database(url: "memory") }
            }
        }
    }

    @MainActor
    final class AccountViewModel {
        let repository: Repository
        init(repository: Repository) { self.repository = repository }
    }

    final class ScreensAssembly: Assembly, @unchecked Sendable {
        var storage: StorageAssembly { collaborator() }

        @MainActor
        var accountViewModel: AccountViewModel {
            get async throws {
                try await define { AccountViewModel(repository: try await self.storage.repository) }
            }
        }
    }

    @Test func aRepositoryIsBuiltOnAConnectedDatabase() async throws {
        let storage = StorageAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
        let repository = try await storage.repository
        #expect(repository.database.url == "postgres://localhost/app")
        #expect(try await storage.database === repository.database)
    }

    @Test func aCycleClosesAcrossSuspensions() async {
        let storage = StorageAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
        let session = await storage.session
        #expect(session.user?.session === session)
    }

    @Test func aFailedConnectionIsTriedAgain() async {
        let storage = StorageAssembly(configuration: Settings(databaseURL: ""))
        await #expect(throws: DatabaseError.self) { try await storage.database }
        await #expect(throws: DatabaseError.self) { try await storage.database }
    }

    @Test func aSubstituteConnectsToNothing() async throws {
        let storage = StorageAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
        let overrides = Overrides(of: storage)
        overrides.replace(StorageAssembly.self, with: InMemoryStorageAssembly.self)
        try await overrides.apply {
            let repository = try await storage.collaborator(StorageAssembly.self).repository
            #expect(repository.database.url == "memory")
        }
    }

    @Test func anOverrideNamesTheDatabaseWithAClosure() async throws {
        let storage = StorageAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
        let overrides = Overrides(of: storage)
        await overrides.replace(awaiting: { try await $0.database }, with: { Database(url: "memory") })
        try await overrides.apply {
            let repository = try await storage.repository  // on the in-memory database
            #expect(repository.database.url == "memory")
        }
    }

    @MainActor
    @Test func aMainActorViewModel() async throws {
        let screens = ScreensAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
        let viewModel = try await screens.accountViewModel
        #expect(viewModel.repository.database.url == "postgres://localhost/app")
    }

    @Test func activationBuildsTheDatabaseThenTheRemoteSettings() async throws {
        let app = StorageAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
        let report = try await app.buildReport { try await app.activate() }
        print(report)  // the slowest bodies first, their suspensions included
        #expect(report.rows.map(\.definition.member) == ["database", "remoteSettings"])
        #expect(try await app.remoteSettings.database === app.database)
    }
}
