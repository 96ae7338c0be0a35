import Assemblies
import Testing

// The code blocks of the article *Passing Arguments to Definitions*, each verbatim (`.ci/run docs`
// checks them), with what they need around them.

@Suite("Passing Arguments to Definitions")
struct ArgumentsArticle {
    final class Client: Sendable {}

    final class Forecast: Sendable {
        static let sample = Forecast(city: "Omsk", days: 1, client: Client())
        let city: String
        let days: Int
        let client: Client
        init(city: String, days: Int, client: Client) {
            self.city = city
            self.days = days
            self.client = client
        }
    }

    final class CoreAssembly: Assembly, @unchecked Sendable {
        var client: Client { define(scope: .singleton) { Client() } }
    }

    final class ForecastAssembly: Assembly, @unchecked Sendable {
        var core: CoreAssembly { collaborator() }

        func forecast(for city: String, days: Int) -> Forecast {
            define(arguments: city, days) { Forecast(city: city, days: days, client: self.core.client) }
        }
    }

    let forecast = ForecastAssembly().forecast(for: "Omsk", days: 5)

    enum Units: Hashable { case metric, imperial }

    final class Banner {
        let city: String
        let units: Units?
        init(city: String, units: Units?) {
            self.city = city
            self.units = units
        }
    }

    final class BannerAssembly: Assembly, @unchecked Sendable {
        func banner(for city: String, units: Units?) -> Banner {
            define(scope: .singleton, arguments: city, units) { Banner(city: city, units: units) }
        }
    }

    func compare(in assembly: BannerAssembly) -> (Bool, Bool) {
        let same = assembly.banner(for: "Omsk", units: nil) === assembly.banner(for: "Omsk", units: nil)  // true
        let other = assembly.banner(for: "Omsk", units: nil) === assembly.banner(for: "Omsk", units: .metric)  // false
        return (same, other)
    }

    final class Header {
        let title: String
        init(title: String) { self.title = title }
    }

    final class ThemeAssembly: Assembly, @unchecked Sendable {
        func header(titled title: String) -> Header { define(arguments: title) { Header(title: title) } }
    }

    final class ForecastScreen {
        var presenter: ForecastPresenter?
        var header: Header?
    }

    final class ForecastPresenter {
        let city: String
        weak var screen: ForecastScreen?
        init(city: String) { self.city = city }
    }

    final class ScreensAssembly: Assembly, @unchecked Sendable {
        var theme: ThemeAssembly { collaborator() }

        func forecastScreen(for city: String) -> ForecastScreen {
            define(arguments: city) { definition in
                let screen = definition *~> ForecastScreen()
                screen.presenter = self.presenter(for: city)  // in this assembly
                screen.header = self.theme.header(titled: city)  // in a collaborator
                return screen
            }
        }

        func presenter(for city: String) -> ForecastPresenter {
            define(arguments: city) { definition in
                let presenter = definition *~> ForecastPresenter(city: city)
                presenter.screen = self.forecastScreen(for: city)  // the screen being wired above
                return presenter
            }
        }
    }

    final class CityAssembly: Assembly, @unchecked Sendable {
        var core: CoreAssembly { collaborator() }

        subscript(city city: String) -> Forecast {
            define(arguments: city) { Forecast(city: city, days: 5, client: self.core.client) }
        }
    }

    func replaceOmsk(in overrides: Overrides<CityAssembly>) {
        overrides.replace(\.[city: "Omsk"]) { Forecast.sample }  // other cities are built as usual
    }

    @Test func theArticleSaysWhatItsCodeDoes() {
        #expect(forecast.city == "Omsk" && forecast.days == 5)
        let (same, other) = compare(in: BannerAssembly())
        #expect(same && !other)
        let screen = ScreensAssembly().forecastScreen(for: "Omsk")
        #expect(screen.presenter?.screen === screen)
        #expect(screen.header?.title == "Omsk")
        let cities = CityAssembly()
        let overrides = Overrides(of: cities)
        replaceOmsk(in: overrides)
        overrides.apply {
            #expect(cities[city: "Omsk"] === Forecast.sample)
            #expect(cities[city: "Lima"].days == 5)
        }
    }
}
