import Assemblies

final class Forecast: Sendable {
    let city: String
    let summary: String
    init(city: String, summary: String) {
        self.city = city
        self.summary = summary
    }
}

final class WeatherAssembly: Assembly, @unchecked Sendable {
    var clock: ClockAssembly { collaborator() }

    /// The definition, as a subscript: a key path can name it with its arguments.
    subscript(city city: String) -> Forecast {
        define(arguments: city) { Forecast(city: city, summary: "sunny at \(self.clock.time(in: city))") }
    }

    /// What callers read.
    func forecast(for city: String) -> Forecast { self[city: city] }
}

class ClockAssembly: Assembly, @unchecked Sendable {
    func time(in city: String) -> String { define(scope: .prototype, arguments: city) { "noon" } }
}

/// Replaces `time(in:)` for every argument: a method can't be named by a key path.
final class FrozenClockAssembly: ClockAssembly, @unchecked Sendable {
    override func time(in city: String) -> String { define(scope: .prototype, arguments: city) { "9:00 (frozen)" } }
}
