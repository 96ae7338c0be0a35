/// What a user chose while signed in: the cities they follow, the one they were looking at, and the
/// units they read temperatures in.
///
/// A ``UserSession`` starts from the preferences its user saved last time, and saves them again when
/// it ends (``UserSession/dispose()``).
struct UserPreferences: Equatable, Sendable {
    /// The cities the user follows, in the order they were added.
    var cities: [String]
    /// The city the user selected, if they selected one.
    var selectedCity: String?
    /// The units the user reads temperatures in.
    var units: TemperatureUnits

    /// Creates preferences.
    init(cities: [String], selectedCity: String? = nil, units: TemperatureUnits = .celsius) {
        self.cities = cities
        self.selectedCity = selectedCity
        self.units = units
    }

    /// The preferences in a few words, such as "5 cities, showing Manila, in °C".
    var summary: String {
        let count = cities.count == 1 ? "1 city" : "\(cities.count) cities"
        let city = (selectedCity ?? cities.first).map { ", showing \($0)" } ?? ""
        return "\(count)\(city), in \(units.symbol)"
    }
}
