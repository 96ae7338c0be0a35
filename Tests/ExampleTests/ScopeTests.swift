import Testing

@testable import Example

@Suite struct ScopeTests {
    @Test func themeIsOneInstanceAcrossReads() {
        let application = ApplicationAssembly()
        #expect(application.themes.currentTheme === application.themes.currentTheme)
    }

    @Test func themeIsOneInstanceAcrossCollaboratingAssemblies() throws {
        let application = ApplicationAssembly()
        let theme = application.themes.currentTheme
        let viewControllers = application.viewControllers
        #expect(viewControllers.themes === application.themes)
        #expect(viewControllers.application === application)
        #expect(viewControllers.themes.currentTheme === theme)
        let root = viewControllers.rootController
        #expect(try #require(root.citiesList).panel.theme === theme)
        #expect(try #require(root.weatherReport).panel.theme === theme)
    }

    @Test func eachRootAssemblyHasItsOwnSingletons() {
        let first = ApplicationAssembly()
        let second = ApplicationAssembly()
        #expect(first.themes.currentTheme !== second.themes.currentTheme)
        #expect(first.core.cityStore !== second.core.cityStore)
    }

    @Test func cityStoreIsSharedByEveryScreen() throws {
        let application = ApplicationAssembly()
        let store = application.core.cityStore
        let root = application.viewControllers.rootController
        #expect(try #require(root.citiesList).cityStore === store)
        #expect(try #require(root.weatherReport?.presenter).cityStore === store)
    }

    @Test func twoTopLevelReadsBuildTwoGraphs() throws {
        let application = ApplicationAssembly()
        let first = application.viewControllers.rootController
        let second = application.viewControllers.rootController
        #expect(first !== second)
        #expect(first.screen !== second.screen)
        let firstReport = try #require(first.weatherReport)
        let secondReport = try #require(second.weatherReport)
        #expect(firstReport !== secondReport)
        #expect(firstReport.presenter !== secondReport.presenter)
        #expect(firstReport.panel.theme === secondReport.panel.theme)
    }

    @Test func oneGraphSharesItsObjectGraphInstances() throws {
        let application = ApplicationAssembly()
        let root = application.viewControllers.rootController
        #expect(try #require(root.citiesList).screen === root.screen)
        #expect(try #require(root.weatherReport).screen === root.screen)
    }

    @Test func everyScreenGetsItsOwnPanel() throws {
        let application = ApplicationAssembly()
        let root = application.viewControllers.rootController
        #expect(try #require(root.citiesList).panel !== root.weatherReport?.panel)
        #expect(application.themes.panel !== application.themes.panel)
    }
}
