import Assemblies

/// How mail leaves the program: a protocol, so that a test can replace it with a double.
protocol MailTransport: Sendable {
    func send(_ message: String) -> String
}

final class SMTPTransport: MailTransport {
    func send(_ message: String) -> String { "sent over SMTP: \(message)" }
}

/// A test's double, which sends nothing.
final class RecordingTransport: MailTransport {
    func send(_ message: String) -> String { "recorded: \(message)" }
}

final class TransportAssembly: Assembly, @unchecked Sendable {
    // Swinject: container.register(MailTransport.self) { _ in SMTPTransport() }
    var transport: any MailTransport { define(scope: .singleton) { SMTPTransport() as any MailTransport } }
}
