import Assemblies

let mail = MailAssembly()
let mailer = mail.mailer  // instead of `container.resolve(Mailer.self)!`
print("one logger:", mailer.logger === mail.mailer.logger)
print("outbox of", mail.outbox(for: "ada").owner)

mail.makeDefault()  // for property wrappers, once, when the program starts
print("injected:", MailScreen().mailer.logger === mailer.logger)

let knight = KnightsAssembly().knight  // no activation step
print("cycle closed:", knight.quest?.knight === knight)

let transports = TransportAssembly()
let overrides = Overrides(of: transports)
overrides.replace(\.transport) { RecordingTransport() }
overrides.apply {
    print(transports.transport.send("hello"))  // the double: the definition's type is the protocol
}
print(transports.transport.send("hello"))
