// Reads on two threads while other work is under way elsewhere in the same family: a task that has
// an async graph of it open, or a task whose overrides of it apply. Every condition reads the same
// family, put into the condition before each of its samples and out of it after: the same objects at
// the same addresses, so that where the allocator put them weighs the same in every condition. (A
// family per condition, kept in it for the whole measurement, measured the same code in two families
// at 0.65x in one build: the families' singletons shared their cache lines with different objects.)

import Assemblies
import Dispatch

/// The ten-object application, a cached singleton, and an async member whose body waits until it is
/// let go: a task reading it keeps an async graph of the family open.
final class ElsewhereAssembly: Assembly, @unchecked Sendable {
    var application: Application {
        define {
            Application(accounts: self.accounts, orders: self.orders, search: self.search, settings: self.settings)
        }
    }
    var accounts: AccountService { define { AccountService(client: self.client, logger: self.logger) } }
    var orders: OrderService { define { OrderService(database: self.database, logger: self.logger) } }
    var search: SearchService { define { SearchService(cache: self.cache, configuration: self.configuration) } }
    var settings: SettingsService {
        define { SettingsService(configuration: self.configuration, logger: self.logger) }
    }
    var client: HTTPClient { define { HTTPClient(configuration: self.configuration, logger: self.logger) } }
    var database: Database { define { Database(configuration: self.configuration) } }
    var cache: Cache { define { Cache(logger: self.logger) } }
    var configuration: Configuration { define { Configuration() } }
    var logger: Logger { define { Logger() } }

    var sharedService: SharedService { define(scope: .singleton) { SharedService() } }

    /// A new family whose singleton is built, so that every read measured takes it from a cache.
    static func withSingletonBuilt() -> ElsewhereAssembly {
        let assembly = ElsewhereAssembly()
        _ = assembly.sharedService
        return assembly
    }

    let opened = DispatchSemaphore(value: 0)
    let letGo = DispatchSemaphore(value: 0)

    /// Opens an async graph of the family, signals `opened`, and keeps it open until `letGo`.
    var held: SharedService {
        get async {
            await define(scope: .prototype) {
                self.opened.signal()
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        self.letGo.wait()
                        continuation.resume()
                    }
                }
                return SharedService()
            }
        }
    }
}

/// A condition another task keeps a family in while the reads are measured.
enum Elsewhere: CaseIterable {
    case quiet, asyncGraphOpen, overridden

    var label: String {
        switch self {
        case .quiet: ""
        case .asyncGraphOpen: "  … while a task has an async graph of the family open"
        case .overridden: "  … while another task's overrides of the family apply"
        }
    }

    /// Puts `assembly`'s family into this condition, and returns how to end it: when it returns, a
    /// task has the family's async graph open or its overrides applied, and stays so until the end is
    /// called.
    func begin(in assembly: ElsewhereAssembly) -> @Sendable () -> Void {
        switch self {
        case .quiet:
            return {}
        case .asyncGraphOpen:
            let reader = Task { await assembly.held }
            assembly.opened.wait()
            return {
                assembly.letGo.signal()
                _ = waitFor { await reader.value }
            }
        case .overridden:
            let overrides = Overrides(of: assembly)
            overrides.replace(\.logger, whenUnused: .ignore) { Logger() }
            let started = DispatchSemaphore(value: 0)
            let task = Task.detached {
                await overrides.apply(whenUnused: .ignore) {
                    started.signal()
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            assembly.letGo.wait()
                            continuation.resume()
                        }
                    }
                }
            }
            started.wait()
            return {
                assembly.letGo.signal()
                waitFor { await task.value }
            }
        }
    }
}

struct ElsewhereSingleton: Resolution, Sendable {
    let assembly: ElsewhereAssembly
    func resolve() -> SharedService { assembly.sharedService }
}

struct ElsewhereApplication: Resolution, Sendable {
    let assembly: ElsewhereAssembly
    func resolve() -> Application { assembly.application }
}
