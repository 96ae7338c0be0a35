import Assemblies

/// The root of the program's assemblies: it wires the app delegate and reaches the feature assemblies.
///
/// It also defines the program's one boundary with the outside world, ``weatherClient``. A family
/// of assemblies hands its root to every collaborator that asks for the root's type, so a test swaps
/// the weather client for a stub by subclassing this class — every object built through the
/// subclass then uses the stub:
///
/// ```swift
/// final class StubbedApplicationAssembly: ApplicationAssembly, @unchecked Sendable {
///     override var weatherClient: WeatherClient { define { StubWeatherClient() } }
/// }
/// ```
class ApplicationAssembly: Assembly, @unchecked Sendable {
    /// The services every screen shares.
    var core: CoreComponentsAssembly { collaborator() }
    /// The look of the program.
    var themes: ThemeAssembly { collaborator() }
    /// The screens.
    var viewControllers: ViewControllersAssembly { collaborator() }

    /// Where forecasts come from: the sample file shipped with the example.
    ///
    /// A singleton, because the client decodes the whole file when it is created.
    var weatherClient: WeatherClient {
        define(scope: .singleton) {
            guard let url = SampleWeatherClient.bundledSample,
                let client = try? SampleWeatherClient(contentsOf: url)
            else {
                fatalError("Example: can't read SampleForecasts.json from the Example target's resources.")
            }
            return client
        }
    }

    /// Wires the app delegate that the entry point built: the framework never builds another.
    ///
    /// - Parameter delegate: The app delegate to wire.
    /// - Returns: `delegate`, wired.
    func inject(_ delegate: AppDelegate) -> AppDelegate {
        define(injecting: delegate) {
            delegate.cityStore = self.core.cityStore
            delegate.theme = self.themes.currentTheme
            delegate.rootController = self.viewControllers.rootController
            return delegate
        }
    }
}
