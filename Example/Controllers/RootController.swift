/// The app's top-level controller: it shows the cities list, then the weather in the current city.
///
/// The cities list points back at it (``CitiesListController/root``), to ask it to open a city:
/// a circular dependency that ``ViewControllersAssembly`` closes by registering the root controller
/// before wiring its children.
final class RootController {
    /// Where the app draws.
    let screen: Screen
    /// The screen that lists the cities the user follows.
    var citiesList: CitiesListController?
    /// The screen that shows the weather in one city.
    var weatherReport: WeatherReportController?

    /// Creates a root controller that draws on `screen`; the assembly sets its children.
    init(screen: Screen) {
        self.screen = screen
    }

    /// Shows the cities list, then opens the current city.
    func start() {
        citiesList?.show()
        citiesList?.openCurrentCity()
    }

    /// Shows the weather in the current city. The cities list calls this when a city is opened.
    func showWeatherReport() {
        screen.skipLine()
        weatherReport?.refresh()
    }
}
