// Async definitions against hand-written async code: the same objects, built with `await`.
// Swinject has no async resolution, so these rows have no Swinject column.

import Assemblies
import Dispatch

/// The ten-object application with an asynchronously opened database: the root and the database
/// are `get async` members, the other eight synchronous members read into the same graph.
final class AsyncApplicationAssembly: Assembly, @unchecked Sendable {
    var application: Application {
        get async {
            await define {
                let orders = OrderService(database: await self.database, logger: self.logger)
                return Application(
                    accounts: self.accounts,
                    orders: orders,
                    search: self.search,
                    settings: self.settings
                )
            }
        }
    }

    var database: Database { get async { await define { await Database.open(configuration: self.configuration) } } }

    var accounts: AccountService { define { AccountService(client: self.client, logger: self.logger) } }
    var search: SearchService { define { SearchService(cache: self.cache, configuration: self.configuration) } }
    var settings: SettingsService {
        define { SettingsService(configuration: self.configuration, logger: self.logger) }
    }
    var client: HTTPClient { define { HTTPClient(configuration: self.configuration, logger: self.logger) } }
    var cache: Cache { define { Cache(logger: self.logger) } }
    var configuration: Configuration { define { Configuration() } }
    var logger: Logger { define { Logger() } }
}

/// An async singleton, built once and then read.
final class AsyncSingletonAssembly: Assembly, @unchecked Sendable {
    var sharedService: SharedService { get async { await define(scope: .singleton) { await SharedService.open() } } }
}

extension Database {
    /// Stands for a connection that is opened asynchronously; it doesn't suspend, so that the
    /// benchmark measures the resolution rather than the scheduler.
    static func open(configuration: Configuration) async -> Database {
        Database(configuration: configuration)
    }
}

extension SharedService {
    static func open() async -> SharedService { SharedService() }
}

enum HandWrittenAsync {
    static func application() async -> Application {
        let configuration = Configuration()
        let logger = Logger()
        let database = await Database.open(configuration: configuration)
        return Application(
            accounts: AccountService(client: HTTPClient(configuration: configuration, logger: logger), logger: logger),
            orders: OrderService(database: database, logger: logger),
            search: SearchService(cache: Cache(logger: logger), configuration: configuration),
            settings: SettingsService(configuration: configuration, logger: logger)
        )
    }

    /// The program-wide instance, read through an actor-free async call.
    @inline(never)
    static func sharedService() async -> SharedService {
        handWrittenSharedService
    }
}

/// One top-level `await` resolution of a scenario's root object, as one variant performs it: the
/// async counterpart of ``Resolution``. The timing loop is generic over it, so after specialization
/// it calls each variant's code the same way — a closure that captures nothing would be specialized
/// into the loop, one that captures an assembly would not, and the rows would compare the harness.
protocol AsyncResolution: Sendable {
    associatedtype Root: AnyObject
    func resolve() async -> Root
}

/// Any async operation, for subjects that have no hand-written counterpart to compare with.
struct AsyncOperation<Root: AnyObject>: AsyncResolution {
    let body: @Sendable () async -> Root
    func resolve() async -> Root { await body() }
}

/// A timed subject whose operation is async: each batch runs in one task, which times its loop
/// itself, so that starting the task and waking the measuring thread are no part of the time.
func asyncSubject<R: AsyncResolution>(_ name: String, _ resolution: R) -> Subject {
    let batch: @Sendable (Int) async -> UInt64 = { count in
        var kept: R.Root?
        let start = monotonicNanoseconds()
        for _ in 0..<count { kept = await resolution.resolve() }
        let elapsed = monotonicNanoseconds() - start
        blackHole(kept)
        return elapsed
    }
    return Subject(
        name: name,
        run: { count in _ = waitFor { await batch(count) } },
        measure: { count in waitFor { await batch(count) } }
    )
}

/// An async subject whose operation is `body`.
func asyncSubject<Root: AnyObject>(_ name: String, _ body: @escaping @Sendable () async -> Root) -> Subject {
    asyncSubject(name, AsyncOperation(body: body))
}

/// Runs `body` in a task and waits for it.
func waitFor<Result>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result?
    Task {
        result = await body()
        done.signal()
    }
    done.wait()
    return result!
}

/// The variants of the async rows: each holds what it reads from, as a program would.
struct HandWrittenAsyncApplication: AsyncResolution {
    func resolve() async -> Application { await HandWrittenAsync.application() }
}

struct AssembliesAsyncApplication: AsyncResolution {
    let assembly: AsyncApplicationAssembly
    func resolve() async -> Application { await assembly.application }
}

struct HandWrittenAsyncSingleton: AsyncResolution {
    func resolve() async -> SharedService { await HandWrittenAsync.sharedService() }
}

struct AssembliesAsyncSingleton: AsyncResolution {
    let assembly: AsyncSingletonAssembly
    func resolve() async -> SharedService { await assembly.sharedService }
}

enum AsyncScenarios {
    /// The async scenarios' subjects: hand-written and Assemblies, after checking that both build
    /// the same graph.
    static func application() -> [Subject] {
        let assembly = AsyncApplicationAssembly()
        let expected = GraphShape(of: waitFor { await HandWrittenAsync.application() })
        let actual = GraphShape(of: waitFor { await assembly.application })
        if expected != actual || expected.objectCount != 10 {
            semanticCheckFailed("async graph (10)", "Assemblies", "built another graph than hand-written async code")
        }
        return [
            asyncSubject(VariantKind.handWritten.name, HandWrittenAsyncApplication()),
            asyncSubject(VariantKind.assemblies.name, AssembliesAsyncApplication(assembly: assembly)),
        ]
    }

    static func singleton() -> [Subject] {
        let assembly = AsyncSingletonAssembly()
        let first = waitFor { await assembly.sharedService }
        if waitFor({ await assembly.sharedService }) !== first {
            semanticCheckFailed("async singleton", "Assemblies", "built the singleton twice")
        }
        return [
            asyncSubject(VariantKind.handWritten.name, HandWrittenAsyncSingleton()),
            asyncSubject(VariantKind.assemblies.name, AssembliesAsyncSingleton(assembly: assembly)),
        ]
    }
}
