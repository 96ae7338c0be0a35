/// Where weather reports come from.
///
/// The program depends on this protocol only. ``ApplicationAssembly`` decides which client the
/// program gets — ``SampleWeatherClient`` here, a stub in the tests.
protocol WeatherClient: AnyObject {
    /// The latest report for `city`.
    ///
    /// - Throws: ``WeatherClientError/unknownCity(_:)`` when the client has no weather for `city`.
    func report(for city: String) throws(WeatherClientError) -> WeatherReport
}
