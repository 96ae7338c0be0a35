/// The cities the user follows, and the one they are looking at.
///
/// Every screen reads and changes the same list, so ``CoreComponentsAssembly`` makes the store a
/// singleton: when the cities list selects a city, the weather report sees it.
final class CityStore {
    /// The cities the user follows, in the order they were added.
    private(set) var cities: [String]
    private var selectedCity: String?

    /// Creates a store that follows `defaultCities`, and shows the first one until another is selected.
    init(defaultCities: [String]) {
        cities = defaultCities
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
