import Assemblies

// The small forecast app that the article *Replacing Definitions in Tests* tests: its code blocks
// are the tests in Recipes/Tests/TestingArticleTests.

protocol WeatherClient: AnyObject, Sendable {
    func forecast(for city: String) -> String
}

final class LiveWeatherClient: WeatherClient {
    func forecast(for city: String) -> String { "sunny in \(city)" }
}

class Network: @unchecked Sendable {}

class Clock: @unchecked Sendable {
    let hour: Int
    init(hour: Int) { self.hour = hour }
}

class Analytics: @unchecked Sendable {}

final class ForecastController {
    let client: WeatherClient
    let clock: Clock
    init(client: WeatherClient, clock: Clock) {
        self.client = client
        self.clock = clock
    }
}

final class CoreAssembly: Assembly, @unchecked Sendable {
    var clock: Clock { define { Clock(hour: 12) } }
}

class ApplicationAssembly: Assembly, @unchecked Sendable {
    var core: CoreAssembly { collaborator() }

    var weatherClient: WeatherClient { define(scope: .singleton) { LiveWeatherClient() as WeatherClient } }

    var network: Network { define(scope: .singleton) { Network() } }

    var analytics: Analytics { define(scope: .singleton) { Analytics() } }

    var forecastController: ForecastController {
        define { ForecastController(client: self.weatherClient, clock: self.core.clock) }
    }
}
