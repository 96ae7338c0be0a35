/// The entry point: a command-line PocketForecast, Typhoon's showcase app, wired by assemblies.
///
/// ```
/// swift run Example                                  # the weather in the first city followed
/// swift run Example --city Omsk                      # follow Omsk and show its weather
/// swift run Example --units fahrenheit               # show temperatures in degrees Fahrenheit
/// swift run Example --city Omsk --switch-user alice  # then sign guest out and alice in
/// swift run Example --graph                          # the object graph of a run, as Mermaid
/// swift run Example --graph dot                      # ... as Graphviz DOT
/// ```
@main
struct PocketForecast {
    static func main() async throws {
        let arguments = Arguments(parsing: Array(CommandLine.arguments.dropFirst()))
        if let format = arguments.graphFormat {
            return print(try await graph(of: arguments, as: format), terminator: "")
        }
        print(try await output(for: arguments).joined(separator: "\n"))
    }

    /// The object graph of a run with `arguments`: what the activation, the injection into the
    /// app delegate and the screens read, each instance once.
    static func graph(of arguments: Arguments, as format: GraphFormat) async throws -> String {
        let assembly = ApplicationAssembly()
        let graph = try await assembly.recordGraph {
            try await assembly.activate()
            _ = assembly.inject(AppDelegate(arguments: arguments)).run()
        }
        return format == .dot ? graph.dot : graph.mermaid
    }

    /// Everything the program prints for `arguments`: the screens, then the facts about its wiring.
    static func output(for arguments: Arguments) async throws -> [String] {
        let assembly = ApplicationAssembly()
        // Builds the eager singletons: the weather client and the theme, then the device's location.
        try await assembly.activate()
        let delegate = AppDelegate(arguments: arguments)
        let wired = assembly.inject(delegate)
        var lines = ["PocketForecast, wired by Assemblies", ""]
        lines.append("You are in \(await assembly.deviceLocation.city)")
        lines += wired.run()
        lines += ["", "How it was wired"]
        lines += WiringFacts.lines(WiringFacts.check(assembly, delegate: delegate, wired: wired))
        return lines
    }
}
