import Assemblies
import Foundation
import Testing

// The code blocks of the articles *Throwing Definitions*, *Using Assemblies from Many Threads* and
// *Injecting Properties from the Default Family*, each verbatim (`.ci/run docs` checks them), in a
// namespace with what it needs, and tests of what they say.

// MARK: Throwing Definitions

struct ThrowingArticle {
    struct Settings: Sendable {
        let databaseURL: String
    }

    enum DatabaseError: Error, Equatable {
        case unreachable(String)
    }

    final class Database: Sendable {
        let isInMemory: Bool
        init(isInMemory: Bool = false) { self.isInMemory = isInMemory }

        static func open(_ url: String) throws(DatabaseError) -> Database {
            guard url.hasPrefix("postgres:") else { throw .unreachable(url) }
            return Database()
        }

        static func inMemory() -> Database { Database(isInMemory: true) }
    }

    final class Repository {
        let database: Database
        var orders: [String] { ["tea"] }
        init(database: Database) { self.database = database }
    }

    final class StorageAssembly: Assembly, @unchecked Sendable {
        var database: Database {
            get throws(DatabaseError) {
                try define(scope: .singleton) { () throws(DatabaseError) in
                    try Database.open(self.configuration(Settings.self).databaseURL)
                }
            }
        }

        var repository: Repository {
            get throws { try define { Repository(database: try self.database) } }
        }
    }

    /// A test's repository, on a double of the database that `storage` would fail to open.
    static func repositoryOnADouble(of storage: StorageAssembly) async throws -> Repository {
        let overrides = Overrides(of: storage)
        await overrides.replace(awaiting: { try $0.database }, with: { Database.inMemory() })
        let repository = try overrides.apply { try storage.repository }  // on the in-memory database
        return repository
    }

    func showOrders(from storage: StorageAssembly) {
        do {
            let repository = try storage.repository
            print(repository.orders)
        } catch {
            print("the database couldn't be opened: \(error)")
        }
    }
}

// MARK: Using Assemblies from Many Threads

enum ThreadSafetyArticle {
    static func readFromTasks() async {
        let assembly = KnightsAssembly()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let knight = assembly.knight  // a graph of this task's own
                    _ = knight.quest
                }
            }
        }
    }
}

enum RestatingArticle {
    final class Knight {}

    final class KnightsAssembly: Assembly, @unchecked Sendable {
        var knight: Knight { define { Knight() } }
    }
}

enum ActorsArticle {
    @MainActor final class ViewModel {}

    final class ScreensAssembly: Assembly, @unchecked Sendable {
        @MainActor var viewModel: ViewModel { define { ViewModel() } }
    }
}

// MARK: Injecting Properties from the Default Family

/// A suite, so that the article's `@Test` function is a test here too.
@Suite("Injecting Properties from the Default Family")
struct PropertyWrappersArticle {
    final class Preferences {}
    final class Analytics {}
    final class SettingsPresenter {}

    final class ForecastPresenter: Sendable {
        let title = "Forecast"
    }

    final class ApplicationAssembly: Assembly, @unchecked Sendable {
        var preferences: Preferences { define { Preferences() } }
        var analytics: Analytics { define(scope: .singleton) { Analytics() } }
        var presenter: SettingsPresenter { define(scope: .singleton) { SettingsPresenter() } }
        var forecastPresenter: ForecastPresenter { define(scope: .singleton) { ForecastPresenter() } }
        var greeting: String { define { "Hello" } }
    }

    final class GreetingController {
        @Injected(\ApplicationAssembly.greeting) var title: String
    }

    final class SettingsController {
        @Injected(\ApplicationAssembly.preferences) var preferences: Preferences
        @InjectedIfAvailable(\ApplicationAssembly.analytics) var analytics: Analytics?
        @WeaklyInjected(\ApplicationAssembly.presenter) var presenter: SettingsPresenter?
    }

    func applicationDidFinishLaunching() {
        let app = ApplicationAssembly()
        app.makeDefault()
        // every @Injected property read from here on resolves from app's family
    }

    struct ForecastView {  // a SwiftUI view, say
        @Injected(\ApplicationAssembly.forecastPresenter) var presenter: ForecastPresenter

        var body: String { presenter.title }  // a getter that can't mutate
    }

    @Test func greetsTheUser() {
        let app = ApplicationAssembly()
        app.makeDefault {
            #expect(GreetingController().title == "Hello")  // its @Injected properties read app's family
        }
    }
}

@Suite("Article snippets")
struct ArticleSnippetTests {
    @Test func aThrowingDefinitionsErrorReachesTheReader() throws {
        let settings = ThrowingArticle.Settings(databaseURL: "sqlite:")
        let storage = ThrowingArticle.StorageAssembly(configuration: settings)
        #expect(throws: ThrowingArticle.DatabaseError.unreachable("sqlite:")) { try storage.database }
        let working = ThrowingArticle.StorageAssembly(configuration: ThrowingArticle.Settings(databaseURL: "postgres:"))
        #expect(try working.repository.database === working.database)
        // On the database that opens: a failing one would print what reads as a problem in a green run.
        ThrowingArticle().showOrders(from: working)
    }

    @Test func aThrowingMemberIsReplacedThroughAClosureThatReadsIt() async throws {
        let storage = ThrowingArticle.StorageAssembly(configuration: ThrowingArticle.Settings(databaseURL: "sqlite:"))
        let repository = try await ThrowingArticle.repositoryOnADouble(of: storage)
        #expect(repository.database.isInMemory)
        #expect(throws: ThrowingArticle.DatabaseError.unreachable("sqlite:")) { try storage.database }
    }

    @Test func tasksReadOneAssemblyAtOnce() async {
        await ThreadSafetyArticle.readFromTasks()
    }

    @Test @MainActor func aMainActorDefinitionIsReadOnTheMainActor() {
        let screens = ActorsArticle.ScreensAssembly()
        #expect(screens.viewModel !== screens.viewModel)
    }

    @Test func aViewReadsItsPresenterWithoutMutating() {
        let app = PropertyWrappersArticle.ApplicationAssembly()
        let view = PropertyWrappersArticle.ForecastView()
        app.makeDefault {
            #expect(view.body == "Forecast")
        }
        _ = PropertyWrappersArticle.SettingsController()
    }
}
