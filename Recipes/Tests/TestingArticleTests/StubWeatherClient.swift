@testable import Forecast

final class StubWeatherClient: WeatherClient {
    func forecast(for city: String) -> String { "snow in \(city)" }
}

final class FakeNetwork: Network, @unchecked Sendable {}

final class FixedClock: Clock, @unchecked Sendable {}

final class SilentAnalytics: Analytics, @unchecked Sendable {}
