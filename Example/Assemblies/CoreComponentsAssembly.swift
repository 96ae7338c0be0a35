import Assemblies

/// The services the screens share: the cities the user follows and the report formatter.
final class CoreComponentsAssembly: Assembly, @unchecked Sendable {
    /// The cities the user follows.
    ///
    /// A singleton: every screen, and the app delegate, must see the same list and the same
    /// current city.
    var cityStore: CityStore {
        define(scope: .singleton) {
            CityStore(defaultCities: ["Manila", "Madrid", "San Francisco", "Phnom Penh", "Omsk"])
        }
    }

    /// Turns reports into lines. It keeps no state, so the default scope does: one per graph.
    var reportFormatter: ReportFormatter {
        define { ReportFormatter(labelWidth: 10) }
    }
}
