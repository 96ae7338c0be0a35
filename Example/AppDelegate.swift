import Assemblies

/// The object that runs the app, built by the entry point from the command line — not by the
/// framework — and then wired by ``ApplicationAssembly/inject(_:)``, the way Typhoon wires a UIKit
/// app delegate.
///
/// It outlives the sessions of the users who sign in: when one user signs out, it ends their session
/// (resetting `Scope.session`), and has the assembly wire it again for the next.
final class AppDelegate {
    /// What the user asked for.
    let arguments: Arguments
    /// The assembly that wired the app delegate, to wire it again for each new session. Set by the assembly.
    var application: ApplicationAssembly?
    /// Who is signed in, and what each user saved. Set by the assembly.
    var accountStore: AccountStore?
    /// The signed-in user's session. Set by the assembly, again for each new session.
    var session: UserSession?
    /// The cities the signed-in user follows: the session's. Set by the assembly.
    var cityStore: CityStore?
    /// The theme of this run. Set by the assembly.
    var theme: Theme?
    /// The app's top-level controller, built on the signed-in user's session. Set by the assembly.
    var rootController: RootController?

    /// Creates an app delegate for `arguments`; it runs once an assembly has wired it.
    init(arguments: Arguments) {
        self.arguments = arguments
    }

    /// Runs the app: applies the arguments, shows the screens, switches to each user the arguments
    /// name, and ends the last session when it is done. Returns what it drew and did.
    func run() -> [String] {
        guard let session, let theme else {
            preconditionFailure("AppDelegate.run() was called before ApplicationAssembly.inject(_:) wired it.")
        }
        if let city = arguments.city {
            session.cityStore.select(city)
        }
        if let units = arguments.units {
            session.units = units
        }
        var lines = arguments.unrecognized.map { "Ignored argument: \($0)" }
        lines.append("Theme: \(theme.name)")
        lines += showScreens()
        for user in arguments.usersToSwitchTo {
            lines += ["", switchUser(to: user)]
            lines += showScreens()
        }
        lines += ["", endSession()]
        return lines
    }

    /// Says who is signed in, then shows the cities list and the weather in their current city.
    private func showScreens() -> [String] {
        guard let session, let rootController else {
            preconditionFailure("AppDelegate has no session to show: ApplicationAssembly.inject(_:) wires one.")
        }
        rootController.start()
        return ["Signed in as \(session.user)", ""] + rootController.screen.lines
    }

    /// Signs the current user out and `user` in: ends the session, then has the assembly wire the app
    /// delegate again, which builds `user`'s session and new screens on it.
    private func switchUser(to user: String) -> String {
        let summary = endSession()
        guard let application, let accountStore else {
            preconditionFailure("AppDelegate.run() was called before ApplicationAssembly.inject(_:) wired it.")
        }
        accountStore.signIn(user)
        _ = application.inject(self)
        return summary
    }

    /// Ends the signed-in user's session: resets the session scope, which disposes of the session —
    /// saving the user's preferences — so that the next read of it builds a new one. Returns what was saved.
    ///
    /// The app delegate and its screens keep the old session's objects until they are wired again.
    private func endSession() -> String {
        guard let application, let accountStore, let session else {
            preconditionFailure("AppDelegate.run() was called before ApplicationAssembly.inject(_:) wired it.")
        }
        application.reset(.session)
        guard let saved = accountStore.savedPreferences(for: session.user) else {
            return "Ended \(session.user)'s session; nothing was saved."
        }
        return "Ended \(session.user)'s session and saved their preferences: \(saved.summary)."
    }
}
