// A wrapper is `Sendable` only when its value is: a non-Sendable value can't cross threads in it.
// expect: stored property '_logger' of 'Sendable'-conforming struct 'LoggingView' contains non-Sendable type 'Logger'
import Assemblies

final class Logger {
    var lines: [String] = []
}

final class AppAssembly: Assembly, @unchecked Sendable {
    var logger: Logger { define(scope: .singleton) { Logger() } }
}

struct LoggingView: Sendable {
    @Injected(\AppAssembly.logger) var logger: Logger
}
