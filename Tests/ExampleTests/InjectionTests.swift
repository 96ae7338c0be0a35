import Testing

@testable import Example

@Suite struct InjectionTests {
    @Test func injectionWiresTheObjectItIsGiven() throws {
        let application = ApplicationAssembly()
        let delegate = AppDelegate(arguments: Arguments())
        let wired = application.inject(delegate)
        #expect(wired === delegate)
        #expect(delegate.cityStore === application.core.cityStore)
        #expect(delegate.theme === application.themes.currentTheme)
        let root = try #require(delegate.rootController)
        #expect(root.citiesList?.root === root)
    }

    @Test func twoInjectionsDoNotShareAGraph() {
        let application = ApplicationAssembly()
        let first = application.inject(AppDelegate(arguments: Arguments()))
        let second = application.inject(AppDelegate(arguments: Arguments()))
        #expect(first !== second)
        #expect(first.rootController !== second.rootController)
        #expect(first.rootController?.screen !== second.rootController?.screen)
        #expect(first.cityStore === second.cityStore)
    }

    @Test func aWiredDelegateRuns() {
        let delegate = ApplicationAssembly().inject(AppDelegate(arguments: Arguments(city: "Madrid")))
        let lines = delegate.run()
        #expect(lines.contains("Theme: Beach"))
        #expect(lines.contains { $0.contains("Weather in Madrid") })
        #expect(delegate.cityStore?.currentCity == "Madrid")
    }
}
