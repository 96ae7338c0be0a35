/// The screen that lists the cities the user follows and marks the current one.
final class CitiesListController {
    /// The cities the user follows.
    let cityStore: CityStore
    /// The panel this screen draws in.
    let panel: Panel
    /// Where the screen draws.
    let screen: Screen
    /// The controller that opens a city. It owns this screen, so the reference back is weak.
    weak var root: RootController?

    /// Creates the cities list; the assembly sets ``root``.
    init(cityStore: CityStore, panel: Panel, screen: Screen) {
        self.cityStore = cityStore
        self.panel = panel
        self.screen = screen
    }

    /// Draws the list, marking the current city with the theme's marker.
    func show() {
        panel.clear(title: "Cities you follow")
        for city in cityStore.cities {
            let marker = city == cityStore.currentCity ? panel.theme.marker : " "
            panel.add("\(marker) \(city)")
        }
        screen.write(panel.drawn)
    }

    /// Asks the root controller to show the weather in the current city.
    func openCurrentCity() {
        root?.showWeatherReport()
    }
}
