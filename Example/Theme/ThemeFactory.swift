/// The themes the program knows, and the rule that picks one for a run.
///
/// PocketForecast shows a different theme on every launch. To keep this program's output the same
/// from run to run, the factory picks by launch number, which the assembly fixes.
final class ThemeFactory {
    /// The themes to choose from, in order.
    let themes: [Theme]

    /// Creates a factory that chooses among `themes`, which must not be empty.
    init(themes: [Theme]) {
        precondition(!themes.isEmpty, "ThemeFactory needs at least one theme.")
        self.themes = themes
    }

    /// The theme for the `launch`-th launch: the themes take turns.
    func theme(forLaunch launch: Int) -> Theme {
        themes[launch % themes.count]
    }
}
