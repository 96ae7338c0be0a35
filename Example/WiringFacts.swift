/// The facts about the program's wiring that it prints after running, each checked on the objects
/// the run used.
enum WiringFacts {
    /// Each fact, and whether it holds.
    ///
    /// - Parameters:
    ///   - assembly: The root assembly that wired the app.
    ///   - delegate: The app delegate the entry point built.
    ///   - wired: What ``ApplicationAssembly/inject(_:)`` returned for `delegate`, after it has run —
    ///     and so after it has ended its last session.
    static func check(
        _ assembly: ApplicationAssembly,
        delegate: AppDelegate,
        wired: AppDelegate
    ) -> [(fact: String, holds: Bool)] {
        let root = wired.rootController
        let citiesList = root?.citiesList
        let weatherReport = root?.weatherReport
        let presenter = weatherReport?.presenter
        let session = wired.session
        let theme = assembly.themes.currentTheme
        let core = assembly.core
        let nextRoot = assembly.viewControllers.rootController
        let nextSession = nextRoot.weatherReport?.presenter?.session
        return [
            (
                "the app delegate built by main is the one wired: inject(delegate) === delegate",
                wired === delegate && root != nil
            ),
            (
                "cycle closes: root.citiesList.root === root",
                root != nil && citiesList?.root === root
            ),
            (
                "cycle closes: weatherReport.presenter.view === weatherReport",
                weatherReport != nil && presenter?.view === weatherReport
            ),
            (
                "theme is one singleton: app delegate, both panels and ThemeAssembly share it",
                wired.theme === theme && citiesList?.panel.theme === theme && weatherReport?.panel.theme === theme
            ),
            (
                "city store is the session's: app delegate, cities list and presenter share it",
                wired.cityStore != nil && wired.cityStore === session?.cityStore
                    && citiesList?.cityStore === wired.cityStore && presenter?.cityStore === wired.cityStore
            ),
            (
                "each screen draws in its own panel (prototype)",
                citiesList != nil && citiesList?.panel !== weatherReport?.panel
            ),
            (
                "both screens write to one Screen (object graph)",
                root != nil && citiesList?.screen === root?.screen && weatherReport?.screen === root?.screen
            ),
            (
                "one report formatter per unit (runtime argument): presenter and core share each",
                presenter.map { $0.formatters(.fahrenheit) === core.reportFormatter(in: .fahrenheit) } ?? false
                    && core.reportFormatter(in: .celsius) === core.reportFormatter(in: .celsius)
                    && core.reportFormatter(in: .celsius) !== core.reportFormatter(in: .fahrenheit)
            ),
            (
                "a new top-level read builds a new graph: new controllers, same singletons",
                nextRoot !== root && nextRoot.weatherReport !== weatherReport && nextRoot.screen !== root?.screen
                    && nextRoot.weatherReport?.panel.theme === theme
                    && nextRoot.weatherReport?.presenter?.weatherClient === assembly.weatherClient
            ),
            (
                "reset(.session) disposed of the session: UserSession.dispose() saved its preferences",
                session.map { wired.accountStore?.savedPreferences(for: $0.user) == $0.preferences } ?? false
            ),
            (
                "after reset(.session) the next read builds a new session; singletons stay",
                nextSession != nil && nextSession !== session && nextSession === core.userSession
                    && core.accountStore === wired.accountStore
            ),
        ]
    }

    /// The facts as lines: `[ok]` before each fact that holds, `[FAILED]` before the others.
    static func lines(_ facts: [(fact: String, holds: Bool)]) -> [String] {
        facts.map { "\($0.holds ? "[ok]    " : "[FAILED]") \($0.fact)" }
    }
}
