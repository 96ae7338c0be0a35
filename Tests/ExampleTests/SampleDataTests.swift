import Testing

@testable import Example

@Suite struct SampleDataTests {
    @Test func theSampleFileLoads() throws {
        let url = try #require(SampleWeatherClient.bundledSample)
        let client = try SampleWeatherClient(contentsOf: url)
        #expect(client.cities == ["Madrid", "Manila", "Omsk", "Phnom Penh", "San Francisco"])
        let omsk = try client.report(for: "Omsk")
        #expect(omsk.current == CurrentConditions(summary: "Snow", temperature: -12, humidity: 85, wind: "14 km/h SW"))
        #expect(omsk.forecast.map(\.day) == ["Mon", "Tue", "Wed"])
    }

    @Test func everyDefaultCityHasAReport() throws {
        let application = ApplicationAssembly()
        let client = application.weatherClient
        for city in application.core.cityStore.cities {
            #expect(try client.report(for: city).city == city)
        }
    }

    @Test func anUnknownCityThrows() {
        let client = SampleWeatherClient(reports: [])
        #expect(throws: WeatherClientError.unknownCity("Atlantis")) {
            try client.report(for: "Atlantis")
        }
    }
}
