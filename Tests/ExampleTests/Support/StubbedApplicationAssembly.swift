@testable import Example

/// The program's assemblies with one definition swapped: the weather client is a stub.
///
/// Every collaborator that reaches `ApplicationAssembly` gets this root, so everything built through
/// it uses the stub.
final class StubbedApplicationAssembly: ApplicationAssembly, @unchecked Sendable {
    override var weatherClient: WeatherClient {
        define(scope: .singleton) { StubWeatherClient() }
    }
}
