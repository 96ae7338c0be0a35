import Testing

@testable import Example

@Suite struct StubbingTests {
    @Test func everythingBuiltThroughTheSubclassUsesTheStub() throws {
        let application = StubbedApplicationAssembly()
        let stub = try #require(application.weatherClient as? StubWeatherClient)
        let root = application.viewControllers.rootController
        let presenter = try #require(root.weatherReport?.presenter)
        #expect(presenter.weatherClient === stub)
    }

    @Test func theStubbedProgramShowsTheStubsWeather() throws {
        let application = StubbedApplicationAssembly()
        let lines = application.inject(AppDelegate(arguments: Arguments(city: "Omsk"))).run()
        #expect(lines.contains { $0.contains("Stubbed sunshine, 20°C") })
        #expect(!lines.contains { $0.contains("Snow") })
        let stub = try #require(application.weatherClient as? StubWeatherClient)
        #expect(stub.requestedCities == ["Omsk"])
    }

    @Test func theRealAssemblyUsesTheSampleClient() throws {
        let application = ApplicationAssembly()
        let presenter = try #require(application.viewControllers.rootController.weatherReport?.presenter)
        #expect(presenter.weatherClient is SampleWeatherClient)
        #expect(presenter.weatherClient === application.weatherClient)
    }
}
