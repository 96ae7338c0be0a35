import Assemblies
import Testing

@testable import Forecast

/// The application a test runs against, set by the `.stubbedWeather` trait.
enum TestApplication {
    @TaskLocal static var current: ApplicationAssembly?
}

/// Runs each test against a new application whose weather client is a stub.
struct StubbedWeather: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }  // on a suite: a new application for each of its tests

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let app = ApplicationAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.weatherClient) { StubWeatherClient() }
        try await TestApplication.$current.withValue(app) {
            try await app.makeDefault {  // for @Injected properties
                // An issue of the test that left a double unused; `.ignore` to say nothing.
                try await overrides.apply(whenUnused: .report { Issue.record("unused: \($0)") }) {
                    try await function()
                }
            }
        }
    }
}

extension Trait where Self == StubbedWeather {
    static var stubbedWeather: Self { Self() }
}

@Test(.stubbedWeather) func showsTheStubbedForecastUnderTheTrait() throws {
    let app = try #require(TestApplication.current)
    #expect(app.forecastController.client is StubWeatherClient)
}
