/// The forecast for one day.
struct DailyForecast: Decodable, Equatable, Sendable {
    /// The day's short name, such as "Mon".
    var day: String
    /// A short description, such as "Showers".
    var summary: String
    /// The lowest temperature, in degrees Celsius.
    var low: Int
    /// The highest temperature, in degrees Celsius.
    var high: Int
}
