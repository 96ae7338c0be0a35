// The graphs defined with Assemblies, the way its users write them: each object its own
// definition, the default scope (object graph) for everything shared within a graph.

import Assemblies

final class ChainAssembly: Assembly, @unchecked Sendable {
    var chain: Chain5 { define(scope: .prototype) { Chain5(next: self.chain4) } }
    var chain4: Chain4 { define(scope: .prototype) { Chain4(next: self.chain3) } }
    var chain3: Chain3 { define(scope: .prototype) { Chain3(next: self.chain2) } }
    var chain2: Chain2 { define(scope: .prototype) { Chain2(next: self.chain1) } }
    var chain1: Chain1 { define(scope: .prototype) { Chain1() } }
}

final class DiamondAssembly: Assembly, @unchecked Sendable {
    var top: DiamondTop { define { DiamondTop(left: self.left, right: self.right) } }
    var left: DiamondLeft { define { DiamondLeft(bottom: self.bottom) } }
    var right: DiamondRight { define { DiamondRight(bottom: self.bottom) } }
    var bottom: DiamondBottom { define { DiamondBottom() } }
}

final class ApplicationAssembly: Assembly, @unchecked Sendable {
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
}

final class SingletonAssembly: Assembly, @unchecked Sendable {
    var sharedService: SharedService { define(scope: .singleton) { SharedService() } }
}

final class CycleAssembly: Assembly, @unchecked Sendable {
    var a: CycleA {
        define { definition in
            let a = definition *~> CycleA()
            a.b = self.b
            return a
        }
    }

    var b: CycleB {
        define { definition in
            let b = definition *~> CycleB()
            b.a = self.a
            return b
        }
    }
}
