/// Fetches the weather in the current city and tells its view what to show, in the user's units.
///
/// It points back at its view, and the view (``WeatherReportController``) owns it: a circular
/// dependency that ``ViewControllersAssembly`` closes with `definition *~> …`.
final class WeatherReportPresenter {
    /// Where reports come from.
    let weatherClient: WeatherClient
    /// The signed-in user's session: which city to show, and in which units.
    let session: UserSession
    /// Makes the formatter for a unit of temperature: ``CoreComponentsAssembly/reportFormatter(in:)``.
    ///
    /// The units are known only when the presenter presents — the user may change them after the
    /// screens are built — so the presenter asks for the formatter then, with the units as the argument.
    let formatters: (TemperatureUnits) -> ReportFormatter
    /// The screen that shows what the presenter presents.
    weak var view: WeatherReportView?

    /// Creates a presenter; the assembly sets ``view``.
    init(
        weatherClient: WeatherClient,
        session: UserSession,
        formatters: @escaping (TemperatureUnits) -> ReportFormatter
    ) {
        self.weatherClient = weatherClient
        self.session = session
        self.formatters = formatters
    }

    /// The cities the user follows, to know which one to show: the session's.
    var cityStore: CityStore { session.cityStore }

    /// Fetches the report for the current city and shows it, or says why there is none.
    func present() {
        guard let city = cityStore.currentCity else {
            view?.display(title: "Weather", lines: ["Follow a city to see its weather."])
            return
        }
        do {
            let report = try weatherClient.report(for: city)
            view?.display(title: "Weather in \(city)", lines: formatters(session.units).lines(for: report))
        } catch {
            view?.display(title: "Weather in \(city)", lines: ["No forecast available for \(city)."])
        }
    }
}
