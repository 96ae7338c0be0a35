/// The scale a user reads temperatures in.
///
/// The weather data is in degrees Celsius; ``ReportFormatter`` converts it for the user's units, and
/// ``CoreComponentsAssembly/reportFormatter(in:)`` hands out one formatter per unit.
enum TemperatureUnits: String, Hashable, Sendable, CaseIterable {
    /// Degrees Celsius, the scale of the data.
    case celsius
    /// Degrees Fahrenheit.
    case fahrenheit

    /// The symbol written after a temperature, such as "°C".
    var symbol: String {
        switch self {
        case .celsius: "°C"
        case .fahrenheit: "°F"
        }
    }

    /// `temperature`, given in degrees Celsius, in these units, rounded to a whole degree.
    func convert(fromCelsius temperature: Int) -> Int {
        switch self {
        case .celsius: temperature
        case .fahrenheit: Int((Double(temperature) * 9 / 5 + 32).rounded())
        }
    }
}
