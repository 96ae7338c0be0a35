/// The screen that shows the weather in one city: the view its presenter presents on.
final class WeatherReportController: WeatherReportView {
    /// The panel this screen draws in.
    let panel: Panel
    /// Where the screen draws.
    let screen: Screen
    /// Decides what the screen shows. It points back at this controller.
    var presenter: WeatherReportPresenter?

    /// Creates the screen; the assembly sets ``presenter``.
    init(panel: Panel, screen: Screen) {
        self.panel = panel
        self.screen = screen
    }

    /// Asks the presenter for the latest report.
    func refresh() {
        presenter?.present()
    }

    func display(title: String, lines: [String]) {
        panel.clear(title: title)
        lines.forEach(panel.add)
        screen.write(panel.drawn)
    }
}
