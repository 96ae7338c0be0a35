import Testing

@testable import Example

@Suite struct ReportFormatterTests {
    let report = WeatherReport(
        city: "Omsk",
        current: CurrentConditions(summary: "Snow", temperature: -12, humidity: 85, wind: "14 km/h SW"),
        forecast: [DailyForecast(day: "Mon", summary: "Snow", low: -18, high: -9)]
    )

    @Test func writesTemperaturesInItsUnits() {
        #expect(
            ReportFormatter(units: .celsius).lines(for: report) == [
                "Now       Snow, -12°C",
                "Humidity  85%",
                "Wind      14 km/h SW",
                "Mon       Snow  -18 to -9°C",
            ]
        )
        #expect(
            ReportFormatter(units: .fahrenheit).lines(for: report) == [
                "Now       Snow, 10°F",
                "Humidity  85%",
                "Wind      14 km/h SW",
                "Mon       Snow  0 to 16°F",
            ]
        )
    }

    @Test func convertsCelsiusToFahrenheit() {
        #expect(TemperatureUnits.fahrenheit.convert(fromCelsius: 0) == 32)
        #expect(TemperatureUnits.fahrenheit.convert(fromCelsius: 100) == 212)
        #expect(TemperatureUnits.fahrenheit.convert(fromCelsius: -40) == -40)
        #expect(TemperatureUnits.celsius.convert(fromCelsius: 31) == 31)
    }

    @Test func theAssemblyMakesOneFormatterPerUnit() {
        let application = ApplicationAssembly()
        let celsius = application.core.reportFormatter(in: .celsius)
        let fahrenheit = application.core.reportFormatter(in: .fahrenheit)
        #expect(celsius.units == .celsius)
        #expect(fahrenheit.units == .fahrenheit)
        #expect(celsius !== fahrenheit)
        #expect(application.core.reportFormatter(in: .celsius) === celsius)
        #expect(application.core.reportFormatter(in: .fahrenheit) === fahrenheit)
        let another = ApplicationAssembly()
        #expect(another.core.reportFormatter(in: .celsius) !== celsius, "another family has formatters of its own")
    }

    @Test func thePresenterUsesTheFormatterForTheUnitsInEffectWhenItPresents() throws {
        let application = ApplicationAssembly()
        let root = application.viewControllers.rootController
        let weatherReport = try #require(root.weatherReport)
        let presenter = try #require(weatherReport.presenter)
        #expect(presenter.formatters(.fahrenheit) === application.core.reportFormatter(in: .fahrenheit))

        presenter.session.units = .fahrenheit  // after the screens were built
        weatherReport.refresh()
        #expect(root.screen.lines.contains("| Now       Sunny, 88°F               |"))
    }
}
