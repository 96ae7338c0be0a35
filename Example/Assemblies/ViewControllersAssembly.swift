import Assemblies

/// The screens, wired to each other and to the services they use.
///
/// Two circular dependencies close here, each by registering an instance with `definition *~> …`
/// before wiring the property that leads back to it: the root controller and the cities list point
/// at each other, and so do the weather screen and its presenter. Everything has the default
/// object-graph scope, so one read of ``rootController`` builds one consistent app.
final class ViewControllersAssembly: Assembly, @unchecked Sendable {
    /// The root, for the weather client.
    var application: ApplicationAssembly { collaborator() }
    /// The shared services.
    var core: CoreComponentsAssembly { collaborator() }
    /// The theme and the panels.
    var themes: ThemeAssembly { collaborator() }

    /// The app's top-level controller, with both screens.
    var rootController: RootController {
        define { definition in
            let root = definition *~> RootController(screen: self.screen)
            root.citiesList = self.citiesListController
            root.weatherReport = self.weatherReportController
            return root
        }
    }

    /// The cities list, which points back at the root controller.
    var citiesListController: CitiesListController {
        define { definition in
            let controller =
                definition
                *~> CitiesListController(cityStore: self.core.cityStore, panel: self.themes.panel, screen: self.screen)
            controller.root = self.rootController
            return controller
        }
    }

    /// The weather screen, which owns its presenter.
    var weatherReportController: WeatherReportController {
        define { definition in
            let controller = definition *~> WeatherReportController(panel: self.themes.panel, screen: self.screen)
            controller.presenter = self.weatherReportPresenter
            return controller
        }
    }

    /// The weather screen's presenter, which points back at the screen.
    ///
    /// It gets the signed-in user's session, and a way to ask for the formatter of the units the user
    /// reads temperatures in when it presents: the formatter is a definition with a runtime argument.
    var weatherReportPresenter: WeatherReportPresenter {
        define { definition in
            let core = self.core
            let presenter =
                definition
                *~> WeatherReportPresenter(
                    weatherClient: self.application.weatherClient,
                    session: core.userSession,
                    formatters: core.provider { core, units in core.reportFormatter(in: units) }
                )
            presenter.view = self.weatherReportController
            return presenter
        }
    }

    /// Where the screens of one app draw: one per graph.
    var screen: Screen {
        define { Screen() }
    }
}
