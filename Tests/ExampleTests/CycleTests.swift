import Testing

@testable import Example

@Suite struct CycleTests {
    @Test func weatherScreenAndPresenterPointAtEachOther() throws {
        let application = ApplicationAssembly()
        let controller = application.viewControllers.weatherReportController
        let presenter = try #require(controller.presenter)
        #expect(presenter.view === controller)
    }

    @Test func rootControllerAndCitiesListPointAtEachOther() throws {
        let application = ApplicationAssembly()
        let root = application.viewControllers.rootController
        let citiesList = try #require(root.citiesList)
        #expect(citiesList.root === root)
    }

    @Test func theCycleIsBuiltOnce() throws {
        let application = ApplicationAssembly()
        let root = application.viewControllers.rootController
        let weatherReport = try #require(root.weatherReport)
        let presenter = try #require(weatherReport.presenter)
        let view = try #require(presenter.view as? WeatherReportController)
        #expect(view === weatherReport)
        #expect(view.presenter === presenter)
    }
}
