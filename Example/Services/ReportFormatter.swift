/// Turns a ``WeatherReport`` into the lines the weather screen shows.
///
/// It knows about columns and units; how the lines are framed is the ``Theme``'s business. A formatter
/// writes temperatures in one unit: ``CoreComponentsAssembly/reportFormatter(in:)`` makes one per unit.
final class ReportFormatter {
    /// The width of the label column.
    let labelWidth: Int
    /// The units the formatter writes temperatures in.
    let units: TemperatureUnits

    /// Creates a formatter whose labels take `labelWidth` columns and whose temperatures are in `units`.
    init(labelWidth: Int = 10, units: TemperatureUnits = .celsius) {
        self.labelWidth = labelWidth
        self.units = units
    }

    /// The lines that describe `report`: the conditions now, then one line per day.
    func lines(for report: WeatherReport) -> [String] {
        let now = report.current
        var lines = [
            row("Now", "\(now.summary), \(temperature(now.temperature))"),
            row("Humidity", "\(now.humidity)%"),
            row("Wind", now.wind),
        ]
        let summaryWidth = report.forecast.map(\.summary.count).max() ?? 0
        for day in report.forecast {
            let low = units.convert(fromCelsius: day.low)
            lines.append(row(day.day, "\(pad(day.summary, to: summaryWidth))  \(low) to \(temperature(day.high))"))
        }
        return lines
    }

    /// `celsius` in ``units``, with the units' symbol: "31°C", "88°F".
    private func temperature(_ celsius: Int) -> String {
        "\(units.convert(fromCelsius: celsius))\(units.symbol)"
    }

    private func row(_ label: String, _ value: String) -> String {
        pad(label, to: labelWidth) + value
    }

    private func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
