/// The object that runs the app, built by the entry point from the command line — not by the
/// framework — and then wired by ``ApplicationAssembly/inject(_:)``, the way Typhoon wires a UIKit
/// app delegate.
final class AppDelegate {
    /// What the user asked for.
    let arguments: Arguments
    /// The cities the user follows. Set by the assembly.
    var cityStore: CityStore?
    /// The theme of this run. Set by the assembly.
    var theme: Theme?
    /// The app's top-level controller. Set by the assembly.
    var rootController: RootController?

    /// Creates an app delegate for `arguments`; it runs once an assembly has wired it.
    init(arguments: Arguments) {
        self.arguments = arguments
    }

    /// Runs the app: applies the arguments, shows the screens, and returns what they drew.
    func run() -> [String] {
        guard let cityStore, let theme, let rootController else {
            preconditionFailure("AppDelegate.run() was called before ApplicationAssembly.inject(_:) wired it.")
        }
        if let city = arguments.city {
            cityStore.select(city)
        }
        var lines = arguments.unrecognized.map { "Ignored argument: \($0)" }
        lines.append("Theme: \(theme.name)")
        lines.append("")
        rootController.start()
        return lines + rootController.screen.lines
    }
}
