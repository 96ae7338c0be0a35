import Assemblies
import Testing

private protocol ForecastView: AnyObject {
    var presenter: ForecastPresenter? { get }
}

private final class ConsoleForecastView: ForecastView {
    var presenter: ForecastPresenter?
    var lines: [String] = []
}

private final class ForecastPresenter {
    weak var view: (any ForecastView)?
}

private struct Coordinates: Equatable {
    var latitude: Double
    var longitude: Double
}

private final class Page {
    let number: Int
    var next: Page?
    init(number: Int) { self.number = number }
}

private final class Trooper {}
private final class Captain {}

private final class RegistrationAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var view: any ForecastView {
        define { definition in
            let view = definition *~> ConsoleForecastView()  // the concrete type, wired as such
            view.lines = ["registered as ConsoleForecastView"]
            view.presenter = self.presenter
            return view
        }
    }

    var presenter: ForecastPresenter {
        define { definition in
            let presenter = definition *~> ForecastPresenter()
            presenter.view = self.view
            return presenter
        }
    }

    var coordinates: Coordinates {
        define { definition in
            counter.tick()
            return definition *~> Coordinates(latitude: 14.6, longitude: 121.0)
        }
    }

    var bothCoordinates: (Coordinates, Coordinates) { define { (self.coordinates, self.coordinates) } }

    func enlist(_ trooper: Trooper) -> Trooper { define(injecting: trooper) { trooper } }
    func enlist(_ captain: Captain) -> Captain { define(injecting: captain) { captain } }
    func enlistBoth(_ trooper: Trooper, _ captain: Captain) -> (Trooper, Captain) {
        define { (self.enlist(trooper), self.enlist(captain)) }
    }

    /// A chain of 300 prototypes, deeper than the depth at which cycles are looked for; each
    /// injection keys by its page, so no key repeats.
    func link(_ page: Page) -> Page {
        define(scope: .prototype, injecting: page) {
            page.next = page.number < 300 ? self.link(Page(number: page.number + 1)) : nil
            return page
        }
    }
}

@Suite struct RegistrationTests {
    @Test func aProtocolTypedDefinitionWiresTheConcreteClassItRegisters() {
        let view = RegistrationAssembly().view
        let console = view as? ConsoleForecastView
        #expect(console?.lines == ["registered as ConsoleForecastView"])
        #expect(view.presenter?.view === view)
    }

    @Test func aValueTypeRegistersACopyAndIsSharedWithinTheGraph() {
        let assembly = RegistrationAssembly()
        let (first, second) = assembly.bothCoordinates
        #expect(first == Coordinates(latitude: 14.6, longitude: 121.0))
        #expect(first == second)
        #expect(assembly.counter["coordinates"] == 1)
    }

    @Test func overloadsThatDifferByResultTypeHaveTheirOwnKeys() {
        let trooper = Trooper()
        let captain = Captain()
        let (enlistedTrooper, enlistedCaptain) = RegistrationAssembly().enlistBoth(trooper, captain)
        #expect(enlistedTrooper === trooper)
        #expect(enlistedCaptain === captain)
    }

    @Test func aDeepChainOfPrototypesThatEndsIsNotACycle() {
        var page: Page? = RegistrationAssembly().link(Page(number: 1))
        var count = 0
        while let current = page {
            count += 1
            page = current.next
        }
        #expect(count == 300)
    }
}
