import Foundation

/// A ``WeatherClient`` that serves the sample forecasts shipped with the example, instead of a
/// weather service on the network.
///
/// It decodes the whole file once, when it is created; ``ApplicationAssembly`` makes it a singleton
/// so that happens once per run.
final class SampleWeatherClient: WeatherClient {
    private let reports: [String: WeatherReport]

    /// Creates a client that serves `reports`, one per city.
    init(reports: [WeatherReport]) {
        self.reports = Dictionary(reports.map { ($0.city, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Creates a client that serves the reports in a JSON file: an array of ``WeatherReport``.
    ///
    /// - Throws: The error that reading or decoding the file threw.
    convenience init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        self.init(reports: try JSONDecoder().decode([WeatherReport].self, from: data))
    }

    /// The sample forecasts shipped in `Example/Resources/SampleForecasts.json`.
    static var bundledSample: URL? {
        Bundle.module.url(forResource: "SampleForecasts", withExtension: "json")
    }

    /// The cities this client has weather for, sorted.
    var cities: [String] { reports.keys.sorted() }

    func report(for city: String) throws(WeatherClientError) -> WeatherReport {
        guard let report = reports[city] else { throw .unknownCity(city) }
        return report
    }
}
