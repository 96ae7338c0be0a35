/// What the user asked for on the command line.
///
/// ```
/// swift run Example --city Omsk --units fahrenheit --switch-user alice
/// ```
///
/// `--city` and `--units` change the preferences of the user signed in when the program starts;
/// each `--switch-user` then signs that user out and another in, whose session starts from what they
/// saved last time. `--graph` prints the object graph the run built instead of its screens, as
/// Mermaid (`--graph dot`: as Graphviz DOT).
struct Arguments: Equatable, Sendable {
    /// The city to follow and show, from `--city NAME`.
    var city: String?
    /// The units to show temperatures in, from `--units celsius` or `--units fahrenheit`.
    var units: TemperatureUnits?
    /// The users to sign in, one after the other, after showing the weather: one `--switch-user NAME`
    /// each, in order.
    var usersToSwitchTo: [String] = []
    /// How to print the graph the run built, from `--graph` (Mermaid) or `--graph dot`; nil to show
    /// the screens.
    var graphFormat: GraphFormat?
    /// The arguments the program did not understand, in order.
    var unrecognized: [String] = []

    /// Creates arguments that ask for `city`, in `units`, then for each of `usersToSwitchTo` in turn.
    init(city: String? = nil, units: TemperatureUnits? = nil, usersToSwitchTo: [String] = []) {
        self.city = city
        self.units = units
        self.usersToSwitchTo = usersToSwitchTo
    }

    /// Parses command-line arguments, without the program's name.
    init(parsing arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--city", let city = remaining.popFirst() {
                self.city = city
            } else if argument.hasPrefix("--city=") {
                city = String(argument.dropFirst("--city=".count))
            } else if argument == "--units", let units = remaining.first.flatMap(TemperatureUnits.init(rawValue:)) {
                remaining.removeFirst()
                self.units = units
            } else if argument.hasPrefix("--units="),
                let units = TemperatureUnits(rawValue: String(argument.dropFirst("--units=".count)))
            {
                self.units = units
            } else if argument == "--switch-user", let user = remaining.popFirst() {
                usersToSwitchTo.append(user)
            } else if argument.hasPrefix("--switch-user=") {
                usersToSwitchTo.append(String(argument.dropFirst("--switch-user=".count)))
            } else if argument == "--graph" {
                graphFormat = remaining.first.flatMap(GraphFormat.init(rawValue:)) ?? .mermaid
                if remaining.first.flatMap(GraphFormat.init(rawValue:)) != nil { remaining.removeFirst() }
            } else {
                unrecognized.append(argument)
            }
        }
    }
}

/// The languages `--graph` prints the object graph in.
enum GraphFormat: String, Equatable, Sendable {
    case mermaid
    case dot
}
