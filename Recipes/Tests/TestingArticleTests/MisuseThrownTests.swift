import Assemblies
import Testing

@testable import Forecast

@Test func theForecastIsWired() async throws {
    try await withMisuseThrown {
        let app = ApplicationAssembly()
        #expect(app.forecastController.client is LiveWeatherClient)
    }
}
