import Assemblies
import Testing

@testable import Forecast

@Test func showsTheStubbedForecast() {
    let app = ApplicationAssembly()
    let overrides = Overrides(of: app)
    overrides.replace(\.weatherClient) { StubWeatherClient() }

    overrides.apply {
        let controller = app.forecastController
        #expect(controller.client is StubWeatherClient)
    }
    #expect(overrides.unused.isEmpty)
}
