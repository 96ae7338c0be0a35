import Assemblies

/// The look of the program: the themes, the one in use, and the panels screens draw in.
final class ThemeAssembly: Assembly, @unchecked Sendable {
    /// The theme of this run.
    ///
    /// A singleton: chosen once, on first read, and shared by every screen. A real app would count
    /// its launches; the example fixes the count so that its output never changes. The factory is
    /// only used while the theme is chosen, so reading it from a singleton is meant: without
    /// `intentionallyCaptive`, a debug build would warn that the singleton may keep an instance of
    /// one object graph.
    var currentTheme: Theme {
        define(scope: .singleton) { self.intentionallyCaptive(self.themeFactory).theme(forLaunch: 0) }
    }

    /// A new, empty panel drawn with the current theme.
    ///
    /// A prototype: a panel holds the rows of the screen that draws it, so screens must not share one.
    var panel: Panel {
        define(scope: .prototype) { Panel(theme: self.currentTheme) }
    }

    /// The themes to choose from. Needed only to choose the current theme, so the default scope.
    var themeFactory: ThemeFactory {
        define { ThemeFactory(themes: [self.beach, self.cloudsOverTheCity, self.lightsInTheRain, self.sunset]) }
    }

    /// Sand and sea: the first theme.
    var beach: Theme {
        define { Theme(name: "Beach", horizontal: "~", vertical: "|", corner: "o", marker: ">") }
    }

    /// Grey skies over rooftops.
    var cloudsOverTheCity: Theme {
        define { Theme(name: "Clouds Over The City", horizontal: "-", vertical: "|", corner: "+", marker: "*") }
    }

    /// Neon on wet streets.
    var lightsInTheRain: Theme {
        define { Theme(name: "Lights In The Rain", horizontal: "=", vertical: ":", corner: "#", marker: "»") }
    }

    /// The end of the day.
    var sunset: Theme {
        define { Theme(name: "Sunset", horizontal: "─", vertical: "│", corner: "•", marker: "→") }
    }
}
