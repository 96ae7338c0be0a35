// The model classes every variant builds: hand-written wiring, Assemblies and Swinject use these
// very classes, so the three differ only in how they wire them.
//
// Each class lists the objects it points at (`references`), which is how the semantic checks
// compare the graphs the variants build (see GraphShape.swift).

/// An object whose outgoing references the semantic checks can walk.
protocol Inspectable: AnyObject {
    /// The objects this one points at, in a fixed order; `nil` for an unset reference.
    var references: [AnyObject?] { get }
}

// MARK: Prototype chain: five objects, each a new instance on every read

final class Chain1: Inspectable {
    var references: [AnyObject?] { [] }
}

final class Chain2: Inspectable {
    let next: Chain1
    init(next: Chain1) { self.next = next }
    var references: [AnyObject?] { [next] }
}

final class Chain3: Inspectable {
    let next: Chain2
    init(next: Chain2) { self.next = next }
    var references: [AnyObject?] { [next] }
}

final class Chain4: Inspectable {
    let next: Chain3
    init(next: Chain3) { self.next = next }
    var references: [AnyObject?] { [next] }
}

final class Chain5: Inspectable {
    let next: Chain4
    init(next: Chain4) { self.next = next }
    var references: [AnyObject?] { [next] }
}

// MARK: Diamond: four objects, the bottom one shared within the graph

final class DiamondBottom: Inspectable {
    var references: [AnyObject?] { [] }
}

final class DiamondLeft: Inspectable {
    let bottom: DiamondBottom
    init(bottom: DiamondBottom) { self.bottom = bottom }
    var references: [AnyObject?] { [bottom] }
}

final class DiamondRight: Inspectable {
    let bottom: DiamondBottom
    init(bottom: DiamondBottom) { self.bottom = bottom }
    var references: [AnyObject?] { [bottom] }
}

final class DiamondTop: Inspectable {
    let left: DiamondLeft
    let right: DiamondRight
    init(left: DiamondLeft, right: DiamondRight) {
        self.left = left
        self.right = right
    }
    var references: [AnyObject?] { [left, right] }
}

// MARK: A small application: ten objects, the logger and the configuration shared

final class Configuration: Inspectable {
    var references: [AnyObject?] { [] }
}

final class Logger: Inspectable {
    var references: [AnyObject?] { [] }
}

final class HTTPClient: Inspectable {
    let configuration: Configuration
    let logger: Logger
    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }
    var references: [AnyObject?] { [configuration, logger] }
}

final class Database: Inspectable {
    let configuration: Configuration
    init(configuration: Configuration) { self.configuration = configuration }
    var references: [AnyObject?] { [configuration] }
}

final class Cache: Inspectable {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
    var references: [AnyObject?] { [logger] }
}

final class AccountService: Inspectable {
    let client: HTTPClient
    let logger: Logger
    init(client: HTTPClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }
    var references: [AnyObject?] { [client, logger] }
}

final class OrderService: Inspectable {
    let database: Database
    let logger: Logger
    init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }
    var references: [AnyObject?] { [database, logger] }
}

final class SearchService: Inspectable {
    let cache: Cache
    let configuration: Configuration
    init(cache: Cache, configuration: Configuration) {
        self.cache = cache
        self.configuration = configuration
    }
    var references: [AnyObject?] { [cache, configuration] }
}

final class SettingsService: Inspectable {
    let configuration: Configuration
    let logger: Logger
    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }
    var references: [AnyObject?] { [configuration, logger] }
}

final class Application: Inspectable {
    let accounts: AccountService
    let orders: OrderService
    let search: SearchService
    let settings: SettingsService
    init(accounts: AccountService, orders: OrderService, search: SearchService, settings: SettingsService) {
        self.accounts = accounts
        self.orders = orders
        self.search = search
        self.settings = settings
    }
    var references: [AnyObject?] { [accounts, orders, search, settings] }
}

// MARK: Singleton: one object for the whole program

final class SharedService: Inspectable, Sendable {
    var references: [AnyObject?] { [] }
}

// MARK: Property cycle: A points at B, B points back at A (weakly, as a delegate would)

final class CycleA: Inspectable {
    var b: CycleB?
    var references: [AnyObject?] { [b] }
}

final class CycleB: Inspectable {
    weak var a: CycleA?
    var references: [AnyObject?] { [a] }
}

// MARK: Scaling: generated graphs of 10, 100 and 1,000 nodes (ScalingGraphs.swift)

/// A node of a scaling graph. Node `i` points at nodes `2i+1`, `2i+2` and `2i+3` when they exist, so
/// most nodes are shared by two parents and the depth stays logarithmic.
final class Node: Inspectable {
    let id: Int
    let first: Node?
    let second: Node?
    let third: Node?
    init(id: Int, _ first: Node?, _ second: Node?, _ third: Node?) {
        self.id = id
        self.first = first
        self.second = second
        self.third = third
    }
    var references: [AnyObject?] { [first, second, third] }
}
