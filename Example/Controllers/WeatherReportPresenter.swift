/// Fetches the weather in the current city and tells its view what to show.
///
/// It points back at its view, and the view (``WeatherReportController``) owns it: a circular
/// dependency that ``ViewControllersAssembly`` closes with `definition *~> …`.
final class WeatherReportPresenter {
    /// Where reports come from.
    let weatherClient: WeatherClient
    /// The cities the user follows, to know which one to show.
    let cityStore: CityStore
    /// Turns a report into lines.
    let formatter: ReportFormatter
    /// The screen that shows what the presenter presents.
    weak var view: WeatherReportView?

    /// Creates a presenter; the assembly sets ``view``.
    init(weatherClient: WeatherClient, cityStore: CityStore, formatter: ReportFormatter) {
        self.weatherClient = weatherClient
        self.cityStore = cityStore
        self.formatter = formatter
    }

    /// Fetches the report for the current city and shows it, or says why there is none.
    func present() {
        guard let city = cityStore.currentCity else {
            view?.display(title: "Weather", lines: ["Follow a city to see its weather."])
            return
        }
        do {
            let report = try weatherClient.report(for: city)
            view?.display(title: "Weather in \(city)", lines: formatter.lines(for: report))
        } catch {
            view?.display(title: "Weather in \(city)", lines: ["No forecast available for \(city)."])
        }
    }
}
