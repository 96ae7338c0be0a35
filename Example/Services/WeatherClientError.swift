/// Why a ``WeatherClient`` could not hand back a report.
enum WeatherClientError: Error, Equatable {
    /// The client has no weather for this city.
    case unknownCity(String)
}
