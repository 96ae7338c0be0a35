/// The cities the user follows, and the one they are looking at.
///
/// Every screen reads and changes the same list, so the store belongs to the signed-in user's
/// ``UserSession``, which every screen shares: when the cities list selects a city, the weather report
/// sees it. The next user gets a store of their own.
final class CityStore {
    /// The cities the user follows, in the order they were added.
    private(set) var cities: [String]
    /// The city the user selected, if they selected one.
    private(set) var selectedCity: String?

    /// Creates a store that follows `cities`, and shows `selectedCity` — or, without one, the first city
    /// followed.
    init(cities: [String], selectedCity: String? = nil) {
        self.cities = cities
        self.selectedCity = selectedCity
    }

    /// The city the user is looking at: the selected one, or else the first city followed.
    var currentCity: String? { selectedCity ?? cities.first }

    /// Follows `city`, if the store does not follow it yet.
    func follow(_ city: String) {
        if !cities.contains(city) { cities.append(city) }
    }

    /// Follows `city` and makes it the current city.
    func select(_ city: String) {
        follow(city)
        selectedCity = city
    }
}
