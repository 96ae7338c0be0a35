@testable import Example

/// The names of the definitions an assembly built, in order.
final class BuildLog {
    /// The names recorded so far.
    private(set) var names: [String] = []

    /// Records that `name` was built.
    func record(_ name: String) {
        names.append(name)
    }
}

/// The program's assemblies with a stub weather client that records when it is built.
final class RecordingApplicationAssembly: ApplicationAssembly, @unchecked Sendable {
    // @unchecked: `builds` is an immutable reference; the tests that use it stay on one thread.
    /// What this family built.
    let builds = BuildLog()

    override var weatherClient: WeatherClient {
        define(scope: .singleton) {
            self.builds.record("weatherClient")
            return StubWeatherClient()
        }
    }
}
