@testable import Example

/// A weather client that knows one kind of weather, everywhere.
final class StubWeatherClient: WeatherClient {
    /// The cities asked about, in order.
    private(set) var requestedCities: [String] = []

    func report(for city: String) throws(WeatherClientError) -> WeatherReport {
        requestedCities.append(city)
        return WeatherReport(
            city: city,
            current: CurrentConditions(summary: "Stubbed sunshine", temperature: 20, humidity: 50, wind: "calm"),
            forecast: [DailyForecast(day: "Day", summary: "Stubbed", low: 15, high: 25)]
        )
    }
}
