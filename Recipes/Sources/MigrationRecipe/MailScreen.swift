import Assemblies

/// An object the assemblies don't build, with its dependency declared.
struct MailScreen {
    @Injected(\MailAssembly.mailer) var mailer: Mailer
}
