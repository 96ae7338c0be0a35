// The graphs registered with Swinject 2.10, the way its documentation recommends: `.transient` for
// new-on-every-read, `.graph` (its default) for shared within a resolution, `.container` for a
// singleton, `initCompleted` for a property cycle.

import Swinject

enum SwinjectVariant {
    static func chainContainer() -> Container {
        let container = Container()
        container.register(Chain5.self) { resolver in Chain5(next: resolver.resolve(Chain4.self)!) }
            .inObjectScope(.transient)
        container.register(Chain4.self) { resolver in Chain4(next: resolver.resolve(Chain3.self)!) }
            .inObjectScope(.transient)
        container.register(Chain3.self) { resolver in Chain3(next: resolver.resolve(Chain2.self)!) }
            .inObjectScope(.transient)
        container.register(Chain2.self) { resolver in Chain2(next: resolver.resolve(Chain1.self)!) }
            .inObjectScope(.transient)
        container.register(Chain1.self) { _ in Chain1() }
            .inObjectScope(.transient)
        return container
    }

    static func diamondContainer() -> Container {
        let container = Container()
        container.register(DiamondTop.self) { resolver in
            DiamondTop(left: resolver.resolve(DiamondLeft.self)!, right: resolver.resolve(DiamondRight.self)!)
        }
        container.register(DiamondLeft.self) { resolver in DiamondLeft(bottom: resolver.resolve(DiamondBottom.self)!) }
        container.register(DiamondRight.self) { resolver in
            DiamondRight(bottom: resolver.resolve(DiamondBottom.self)!)
        }
        container.register(DiamondBottom.self) { _ in DiamondBottom() }
        return container
    }

    static func applicationContainer() -> Container {
        let container = Container()
        container.register(Application.self) { resolver in
            Application(
                accounts: resolver.resolve(AccountService.self)!,
                orders: resolver.resolve(OrderService.self)!,
                search: resolver.resolve(SearchService.self)!,
                settings: resolver.resolve(SettingsService.self)!
            )
        }
        container.register(AccountService.self) { resolver in
            AccountService(client: resolver.resolve(HTTPClient.self)!, logger: resolver.resolve(Logger.self)!)
        }
        container.register(OrderService.self) { resolver in
            OrderService(database: resolver.resolve(Database.self)!, logger: resolver.resolve(Logger.self)!)
        }
        container.register(SearchService.self) { resolver in
            SearchService(cache: resolver.resolve(Cache.self)!, configuration: resolver.resolve(Configuration.self)!)
        }
        container.register(SettingsService.self) { resolver in
            SettingsService(
                configuration: resolver.resolve(Configuration.self)!,
                logger: resolver.resolve(Logger.self)!
            )
        }
        container.register(HTTPClient.self) { resolver in
            HTTPClient(configuration: resolver.resolve(Configuration.self)!, logger: resolver.resolve(Logger.self)!)
        }
        container.register(Database.self) { resolver in
            Database(configuration: resolver.resolve(Configuration.self)!)
        }
        container.register(Cache.self) { resolver in Cache(logger: resolver.resolve(Logger.self)!) }
        container.register(Configuration.self) { _ in Configuration() }
        container.register(Logger.self) { _ in Logger() }
        return container
    }

    static func singletonContainer() -> Container {
        let container = Container()
        container.register(SharedService.self) { _ in SharedService() }.inObjectScope(.container)
        return container
    }

    static func cycleContainer() -> Container {
        let container = Container()
        container.register(CycleA.self) { _ in CycleA() }
            .initCompleted { resolver, a in a.b = resolver.resolve(CycleB.self)! }
        container.register(CycleB.self) { _ in CycleB() }
            .initCompleted { resolver, b in b.a = resolver.resolve(CycleA.self)! }
        return container
    }
}
