// Reads on two threads while other work is under way elsewhere in the same family: a task that has
// an async graph of it open, or a task whose overrides of it apply. Each condition has a family of
// its own, kept in it for the whole measurement, so that the conditions' samples can interleave.

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

    /// A family in this condition, and how to end it.
    func family() -> (assembly: ElsewhereAssembly, end: () -> Void) {
        let assembly = ElsewhereAssembly()
        _ = assembly.sharedService
        switch self {
        case .quiet:
            return (assembly, {})
        case .asyncGraphOpen:
            let reader = Task { await assembly.held }
            assembly.opened.wait()
            return (
                assembly,
                {
                    assembly.letGo.signal()
                    _ = waitFor { await reader.value }
                }
            )
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
            return (
                assembly,
                {
                    assembly.letGo.signal()
                    waitFor { await task.value }
                }
            )
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
