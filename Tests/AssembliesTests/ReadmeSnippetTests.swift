import Assemblies
import Testing

// The README's snippets after the Quick Start, each verbatim (`.ci/run readme` checks them), with
// what they need around them and tests of what they say. They build on the Quick Start's cafe
// (ReadmeTests.swift).

extension Scope {
    static let shift = Scope.resettable("shift")
}

final class Till: Disposable {
    func dispose() { print("till closed") }
}

final class Menu {}

final class ShiftAssembly: Assembly, @unchecked Sendable {
    var till: Till { define(scope: .shift) { Till() } }  // until reset(.shift)
    var menu: Menu { define(scope: .weakSingleton) { Menu() } }  // shared while someone holds it
}

func closeTheShift() {
    let shifts = ShiftAssembly()
    let till = shifts.till
    shifts.reset(.shift)  // prints "till closed"; the next read builds a new till
    print(shifts.till === till)  // false
}

final class Grinder {
    let roastery: Roastery

    init(roastery: Roastery) {
        self.roastery = roastery
    }
}

final class RoasteryAssembly: Assembly, @unchecked Sendable {
    var roastery: Roastery { define(scope: .singleton) { Roastery() } }
    var grinder: Grinder { define(scope: .singleton) { Grinder(roastery: self.roastery) } }

    override func buildEagerSingletons() {
        _ = roastery  // built first
        _ = grinder  // then the grinder, which finds the roastery built
    }
}

func openEarly() {
    let roasteries = RoasteryAssembly()
    roasteries.activate()  // both exist from here on
}

final class Order {
    let drink: String
    let shots: Int?

    init(drink: String, shots: Int?) {
        self.drink = drink
        self.shots = shots
    }
}

final class OrderAssembly: Assembly, @unchecked Sendable {
    func order(of drink: String, shots: Int?) -> Order {
        define(arguments: drink, shots) { Order(drink: drink, shots: shots) }
    }
}

func takeAnOrder() -> Order {
    OrderAssembly().order(of: "flat white", shots: nil)
}

enum DatabaseError: Error {
    case unreachable
}

final class Database: Sendable {
    static func open(_ url: String) throws(DatabaseError) -> Database {
        if url.isEmpty { throw .unreachable }
        return Database()
    }
}

final class ReadmeStorageAssembly: Assembly, @unchecked Sendable {
    let url: String

    required init() {
        url = "sqlite::memory:"
        super.init()
    }

    var database: Database {
        get throws(DatabaseError) {
            try define(scope: .singleton) { () throws(DatabaseError) in try Database.open(url) }
        }
    }
}

final class Shop {
    var till: Till?
    var isOpen = false
}

final class ShopAssembly: Assembly, @unchecked Sendable {
    var shifts: ShiftAssembly { collaborator() }

    var shop: Shop {
        define { definition in
            let shop = definition *~> Shop()
            // Once the body has returned:
            definition.afterWiring { shop in print("wired, till: \(shop.till != nil)") }
            // Once the whole graph is done:
            definition.afterAllInjections { shop in shop.isOpen = true }
            shop.till = self.shifts.till
            return shop
        }
    }
}

protocol BeanSupplier: AnyObject {
    var beans: String { get }
}

final class Farm: BeanSupplier {
    let beans = "arabica"
}

final class StubSupplier: BeanSupplier {
    let beans = "stub"
}

final class SupplyAssembly: Assembly, @unchecked Sendable {
    // `as any BeanSupplier` makes the definition's type the protocol, so any supplier can replace it.
    var supplier: any BeanSupplier { define(scope: .singleton) { Farm() as any BeanSupplier } }
}

@Test func usesTheStubSupplier() {
    let supplies = SupplyAssembly()
    let overrides = Overrides(of: supplies)
    overrides.replace(\.supplier) { StubSupplier() }

    overrides.apply {
        #expect(supplies.supplier.beans == "stub")
    }
    #expect(overrides.unused.isEmpty)
}

final class OrderScreen {
    @Injected(\CafeAssembly.cafe) var cafe: Cafe
    @InjectedIfAvailable(\CafeAssembly.cup) var spareCup: Cup?
    @WeaklyInjected(\CafeAssembly.roastery) var roastery: Roastery?  // a singleton: the family holds it
}

func startTheApp() {
    CafeAssembly().makeDefault()  // for the whole program, until removeDefault()
}

final class Hen {
    let egg: Egg
    init(egg: Egg) { self.egg = egg }
}

final class Egg {
    let hen: Hen
    init(hen: Hen) { self.hen = hen }
}

final class CoopAssembly: Assembly, @unchecked Sendable {
    var hen: Hen { define { Hen(egg: self.egg) } }
    var egg: Egg { define { Egg(hen: self.hen) } }
}

func hatch() {
    _ = CoopAssembly().hen
}

@Suite("README snippets")
struct ReadmeSnippetTests {
    @Test func aResetScopeBuildsNewInstances() {
        closeTheShift()
        let shifts = ShiftAssembly()
        let till = shifts.till
        #expect(shifts.till === till)
        shifts.reset(.shift)
        #expect(shifts.till !== till)
    }

    @Test func eagerSingletonsExistAfterActivation() {
        openEarly()
        let roasteries = RoasteryAssembly()
        roasteries.activate()
        #expect(roasteries.grinder.roastery === roasteries.roastery)
    }

    @Test func argumentsArePartOfTheKey() {
        let order = takeAnOrder()
        #expect(order.drink == "flat white")
        #expect(order.shots == nil)
    }

    @Test func aThrowingDefinitionReturnsWhatItOpened() throws {
        let storage = ReadmeStorageAssembly()
        #expect(try storage.database === storage.database, "a singleton")
    }

    @Test func hooksRunOnceTheShopIsWired() {
        let shop = ShopAssembly().shop
        #expect(shop.isOpen)
        #expect(shop.till != nil)
    }

    @Test func propertyWrappersResolveFromTheDefault() {
        let cafes = CafeAssembly()
        let screen = OrderScreen()
        cafes.makeDefault {
            #expect(screen.cafe.barista?.cafe === screen.cafe)
            #expect(screen.spareCup != nil)
            #expect(screen.roastery === cafes.roastery)
        }
    }

    @Test func anInitializerCycleStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            hatch()
        }
        // The message the README shows, word for word.
        let message =
            "circular dependency, read again before it was registered: CoopAssembly.hen → CoopAssembly."
            + "egg → CoopAssembly.hen. CoopAssembly.hen was read again before its definition registered a"
            + "n instance with `definition *~>` — its body was still computing an initializer's arguments"
            + ", or read CoopAssembly.egg before registering — so no instance exists yet to hand back. To"
            + " fix this, register the instance before reading CoopAssembly.egg: `let instance = definiti"
            + "on *~> Type(...)`, then set the property that points back; or, when an initializer needs C"
            + "oopAssembly.egg, pass the back-reference in later instead."
        #expect(stderr(of: result).contains(message), "\(stderr(of: result))")
    }
}
