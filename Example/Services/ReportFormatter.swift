/// Turns a ``WeatherReport`` into the lines the weather screen shows.
///
/// It knows about columns and units; how the lines are framed is the ``Theme``'s business.
final class ReportFormatter {
    /// The width of the label column.
    let labelWidth: Int

    /// Creates a formatter whose labels take `labelWidth` columns.
    init(labelWidth: Int = 10) {
        self.labelWidth = labelWidth
    }

    /// The lines that describe `report`: the conditions now, then one line per day.
    func lines(for report: WeatherReport) -> [String] {
        let now = report.current
        var lines = [
            row("Now", "\(now.summary), \(now.temperature)°C"),
            row("Humidity", "\(now.humidity)%"),
            row("Wind", now.wind),
        ]
        let summaryWidth = report.forecast.map(\.summary.count).max() ?? 0
        for day in report.forecast {
            lines.append(row(day.day, "\(pad(day.summary, to: summaryWidth))  \(day.low) to \(day.high)°C"))
        }
        return lines
    }

    private func row(_ label: String, _ value: String) -> String {
        pad(label, to: labelWidth) + value
    }

    private func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
