import Assemblies

/// The services the screens share: who is signed in, their session, and the report formatters.
final class CoreComponentsAssembly: Assembly, @unchecked Sendable {
    /// Who is signed in, and what each user saved.
    ///
    /// A singleton: it outlives every session — a session starts from what it holds and saves back to it.
    /// Users who never saved anything follow the example's five cities, in degrees Celsius.
    var accountStore: AccountStore {
        define(scope: .singleton) {
            AccountStore(
                signedInUser: "guest",
                defaults: UserPreferences(cities: ["Manila", "Madrid", "San Francisco", "Phnom Penh", "Omsk"])
            )
        }
    }

    /// The signed-in user's session, starting from what they saved last time.
    ///
    /// In the session scope: every screen, and the app delegate, share it until the app resets the
    /// scope. Then it is disposed of, which saves it, and the next read builds the next user's session.
    var userSession: UserSession {
        define(scope: .session) {
            let accounts = self.accountStore
            let user = accounts.signedInUser
            return UserSession(user: user, preferences: accounts.preferences(for: user), accounts: accounts)
        }
    }

    /// The cities the signed-in user follows: their session's.
    ///
    /// Every screen, and the app delegate, see the same list and the same current city — until another
    /// user signs in, whose session has a store of its own.
    var cityStore: CityStore {
        define { self.userSession.cityStore }
    }

    /// Turns reports into lines, with temperatures in `units`.
    ///
    /// The units are a runtime argument, part of the definition's key: a formatter keeps no state, so
    /// it is a singleton per unit — every read for degrees Fahrenheit gets one formatter, every read
    /// for degrees Celsius another.
    ///
    /// - Parameter units: The units to write temperatures in.
    /// - Returns: The family's formatter for `units`.
    func reportFormatter(in units: TemperatureUnits) -> ReportFormatter {
        define(scope: .singleton, arguments: units) { ReportFormatter(labelWidth: 10, units: units) }
    }
}
