/// The weather for one city: the conditions now and the days ahead.
///
/// This is what a ``WeatherClient`` hands back. It is plain data, decoded from the sample file the
/// example ships with.
struct WeatherReport: Decodable, Equatable, Sendable {
    /// The city the report is for.
    var city: String
    /// The conditions now.
    var current: CurrentConditions
    /// The forecast for the coming days, in order.
    var forecast: [DailyForecast]
}
