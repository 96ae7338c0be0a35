import Assemblies
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

    // MARK: Overrides: the real assembly, with a definition replaced while a test runs

    @Test func overridesSwapTheWeatherClientForEverythingBuiltWhileTheyApply() throws {
        let application = ApplicationAssembly()
        let overrides = Overrides(of: application)
        overrides.replace(\.weatherClient) { StubWeatherClient() }

        try overrides.apply {
            let stub = try #require(application.weatherClient as? StubWeatherClient)
            let delegate = application.inject(AppDelegate(arguments: Arguments(city: "Omsk")))
            #expect(delegate.rootController?.weatherReport?.presenter?.weatherClient === stub)
            let lines = delegate.run()
            #expect(lines.contains("| Now       Stubbed sunshine, 20°C |"))
            #expect(!lines.contains { $0.contains("Snow") })
            #expect(stub.requestedCities == ["Omsk"])
        }
        #expect(overrides.unused.isEmpty)
        #expect(application.weatherClient is SampleWeatherClient)
    }

    @Test func overridesReachDefinitionsInCollaborators() {
        let application = ApplicationAssembly()
        let overrides = Overrides(of: application)
        overrides.replace(\.weatherClient) { StubWeatherClient() }
        overrides.replace(\.core.accountStore) {
            AccountStore(
                signedInUser: "guest",
                defaults: UserPreferences(cities: ["Manila"]),
                saved: ["alice": UserPreferences(cities: ["Madrid", "Omsk"], selectedCity: "Omsk", units: .fahrenheit)]
            )
        }

        let lines = overrides.apply {
            application.inject(AppDelegate(arguments: Arguments(usersToSwitchTo: ["alice"]))).run()
        }
        #expect(overrides.unused.isEmpty)
        let alice = lines.drop { $0 != "Signed in as alice" }
        #expect(alice.contains("| > Omsk                       |"))
        #expect(alice.contains("| Now       Stubbed sunshine, 68°F |"))
        #expect(lines.last == "Ended alice's session and saved their preferences: 2 cities, showing Omsk, in °F.")
    }

    @Test func resettingTheSessionWhileOverridesApplyLeavesTheFamilysSessionAlone() {
        let application = ApplicationAssembly()
        let session = application.core.userSession
        let overrides = Overrides(of: application)
        overrides.replace(\.weatherClient) { StubWeatherClient() }

        overrides.apply {
            let overridden = application.core.userSession
            #expect(overridden !== session)
            application.reset(.session)
            #expect(application.core.userSession !== overridden)
            _ = application.weatherClient
        }
        #expect(application.core.userSession === session)
        #expect(application.core.accountStore.savedPreferences(for: "guest") == nil)
    }
}
