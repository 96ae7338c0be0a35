import Assemblies
import Testing

@testable import Forecast

// The article's other blocks, verbatim, with what they need around them.

func nameDefinitions(in overrides: Overrides<ApplicationAssembly>) {
    overrides.replace(\.network) { FakeNetwork() }
    overrides.replace(\.core.clock, scope: .prototype) { FixedClock(hour: 9) }
}

final class LiveClient: WeatherClient {
    func forecast(for city: String) -> String { "live" }
}

final class ClientAssembly: Assembly, @unchecked Sendable {
    var client: any WeatherClient { define { LiveClient() as any WeatherClient } }
}

func runTheTest() {}

func routeUnused(of overrides: Overrides<ApplicationAssembly>) {
    overrides.replace(\.analytics, whenUnused: .ignore) { SilentAnalytics() }  // not every test reads it
    overrides.apply(whenUnused: .ignore) { runTheTest() }  // nothing reported
    overrides.apply(whenUnused: .report { unused in print(unused) }) { runTheTest() }  // one call, if any
}

class HTTPClient {}
final class URLSessionClient: HTTPClient {}
final class OfflineClient: HTTPClient {}

final class Request {
    let path: String
    let client: HTTPClient
    init(path: String, client: HTTPClient) {
        self.path = path
        self.client = client
    }
}

func substituteTheNetwork(in overrides: Overrides<ApplicationAssembly>) {
    class NetworkAssembly: Assembly, @unchecked Sendable {
        var client: HTTPClient { define(scope: .singleton) { URLSessionClient() } }
        func request(for path: String) -> Request {
            define(arguments: path) { Request(path: path, client: self.client) }
        }
    }

    final class OfflineNetworkAssembly: NetworkAssembly, @unchecked Sendable {
        override var client: HTTPClient { define(scope: .singleton) { OfflineClient() } }
    }

    overrides.replace(NetworkAssembly.self, with: OfflineNetworkAssembly.self)
}

final class StubbedApplicationAssembly: ApplicationAssembly, @unchecked Sendable {
    override var weatherClient: WeatherClient {
        define(scope: .singleton) { StubWeatherClient() }
    }
}

let app = StubbedApplicationAssembly()  // a new family, with its own singletons

@Test func theArticlesBlocksDoWhatItSays() {
    let application = ApplicationAssembly()
    let overrides = Overrides(of: application)
    nameDefinitions(in: overrides)
    routeUnused(of: overrides)
    substituteTheNetwork(in: overrides)
    overrides.apply(whenUnused: .ignore) {
        #expect(application.network is FakeNetwork)
        #expect(application.forecastController.clock.hour == 9)
        #expect(application.forecastController.clock !== application.forecastController.clock)
    }
    #expect(app.weatherClient is StubWeatherClient)
    #expect(ClientAssembly().client is LiveClient)
}
