/// The weather in a city right now.
struct CurrentConditions: Decodable, Equatable, Sendable {
    /// A short description, such as "Sunny".
    var summary: String
    /// The temperature in degrees Celsius.
    var temperature: Int
    /// The relative humidity, in percent.
    var humidity: Int
    /// The wind speed and direction, such as "11 km/h NE".
    var wind: String
}
