/// The entry point: a command-line PocketForecast, Typhoon's showcase app, wired by assemblies.
///
/// ```
/// swift run Example                                  # the weather in the first city followed
/// swift run Example --city Omsk                      # follow Omsk and show its weather
/// swift run Example --units fahrenheit               # show temperatures in degrees Fahrenheit
/// swift run Example --city Omsk --switch-user alice  # then sign guest out and alice in
/// ```
@main
struct PocketForecast {
    static func main() {
        let arguments = Arguments(parsing: Array(CommandLine.arguments.dropFirst()))
        print(output(for: arguments).joined(separator: "\n"))
    }

    /// Everything the program prints for `arguments`: the screens, then the facts about its wiring.
    static func output(for arguments: Arguments) -> [String] {
        let assembly = ApplicationAssembly()
        assembly.activate()  // builds the eager singletons: the weather client and the theme
        let delegate = AppDelegate(arguments: arguments)
        let wired = assembly.inject(delegate)
        var lines = ["PocketForecast, wired by Assemblies", ""]
        lines += wired.run()
        lines += ["", "How it was wired"]
        lines += WiringFacts.lines(WiringFacts.check(assembly, delegate: delegate, wired: wired))
        return lines
    }
}
