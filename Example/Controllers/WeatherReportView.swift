/// What ``WeatherReportPresenter`` needs from the screen it presents on.
///
/// ``WeatherReportController`` is the view; the presenter holds it weakly, because the controller
/// owns the presenter.
protocol WeatherReportView: AnyObject {
    /// Shows a report, already formatted into lines, under `title`.
    func display(title: String, lines: [String])
}
