/// What the user asked for on the command line.
///
/// ```
/// swift run Example --city Omsk
/// ```
struct Arguments: Equatable, Sendable {
    /// The city to follow and show, from `--city NAME`.
    var city: String?
    /// The arguments the program did not understand, in order.
    var unrecognized: [String] = []

    /// Creates arguments that ask for `city`.
    init(city: String? = nil) {
        self.city = city
    }

    /// Parses command-line arguments, without the program's name.
    init(parsing arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--city", let city = remaining.popFirst() {
                self.city = city
            } else if argument.hasPrefix("--city=") {
                city = String(argument.dropFirst("--city=".count))
            } else {
                unrecognized.append(argument)
            }
        }
    }
}
