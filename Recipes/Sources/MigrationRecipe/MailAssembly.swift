import Assemblies

final class Logger: Sendable {}

final class Mailer: Sendable {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}

final class Outbox: Sendable {
    let mailer: Mailer
    let owner: String
    init(mailer: Mailer, owner: String) {
        self.mailer = mailer
        self.owner = owner
    }
}

final class MailAssembly: Assembly, @unchecked Sendable {
    var logger: Logger { define(scope: .singleton) { Logger() } }

    var mailer: Mailer { define { Mailer(logger: self.logger) } }

    func outbox(for owner: String) -> Outbox {
        define(arguments: owner) { Outbox(mailer: self.mailer, owner: owner) }
    }
}
