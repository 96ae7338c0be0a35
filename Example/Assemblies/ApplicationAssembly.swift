import Assemblies

/// The root of the program's assemblies: it wires the app delegate and reaches the feature assemblies.
///
/// It also defines the program's one boundary with the outside world, ``weatherClient``. A test swaps
/// the weather client for a stub without touching this class, with `Overrides`:
///
/// ```swift
/// let application = ApplicationAssembly()
/// let overrides = Overrides(of: application)
/// overrides.replace(\.weatherClient) { StubWeatherClient() }
/// overrides.apply {
///     // every object built through `application` here uses the stub
/// }
/// ```
///
/// A family of assemblies hands its root to every collaborator that asks for the root's type, so
/// subclassing this class works too — every object built through the subclass uses the stub:
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
    /// A singleton, because the client decodes the whole file when it is created; an eager one (see
    /// ``buildEagerSingletons()``), so that happens when the program starts.
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

    /// What finds where the device is: a sample that always answers Madrid.
    var locator: SampleLocator {
        define(scope: .singleton) { SampleLocator(city: "Madrid") }
    }

    /// Where the device is, found once at launch.
    ///
    /// Finding it takes a moment, so the body awaits: an async singleton, built once however many
    /// tasks read it, with no thread blocked meanwhile. The synchronous `locator` it reads joins its
    /// graph. Only async code can read it — the entry point, after `await activate()`.
    var deviceLocation: DeviceLocation {
        get async {
            await define(scope: .singleton) { await self.locator.locate() }
        }
    }

    /// Builds, when ``PocketForecast`` activates the family, the singletons the first screen needs:
    /// the weather client, which decodes the sample file — a missing file stops the program at launch
    /// rather than halfway through drawing — and the theme of this run.
    override func buildEagerSingletons() {
        _ = weatherClient
        _ = themes.currentTheme
    }

    /// The eager singleton whose body awaits: `await activate()` builds it after the others.
    override func buildAsyncEagerSingletons() async throws {
        _ = await deviceLocation
    }

    /// Wires the app delegate that the entry point built: the framework never builds another.
    ///
    /// The delegate calls it again for each new session, to get the new user's session and new screens
    /// built on it; it keeps the same theme and account store, which are singletons.
    ///
    /// - Parameter delegate: The app delegate to wire.
    /// - Returns: `delegate`, wired.
    func inject(_ delegate: AppDelegate) -> AppDelegate {
        define(injecting: delegate) {
            delegate.application = self
            delegate.accountStore = self.core.accountStore
            delegate.session = self.core.userSession
            delegate.cityStore = self.core.cityStore
            delegate.theme = self.themes.currentTheme
            delegate.rootController = self.viewControllers.rootController
            return delegate
        }
    }
}
