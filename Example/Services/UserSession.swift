import Assemblies

/// The signed-in user's session: who they are, the cities they follow and the units they read
/// temperatures in, for as long as they stay signed in.
///
/// ``CoreComponentsAssembly`` defines it in the session scope (`Scope.session`): the app delegate and
/// every screen share one session, like a singleton, until ``AppDelegate`` ends it with
/// `reset(.session)` — when another user signs in, and when the app quits. Ending the session disposes
/// of it: it saves the user's preferences, and the next read of the session builds the next user's,
/// starting from what that user saved last time.
final class UserSession: Disposable {
    /// The signed-in user's name.
    let user: String
    /// The cities the user follows.
    let cityStore: CityStore
    /// The units the user reads temperatures in.
    var units: TemperatureUnits
    private let accounts: AccountStore

    /// Creates `user`'s session, starting from `preferences`; ``dispose()`` saves it to `accounts`.
    init(user: String, preferences: UserPreferences, accounts: AccountStore) {
        self.user = user
        cityStore = CityStore(cities: preferences.cities, selectedCity: preferences.selectedCity)
        units = preferences.units
        self.accounts = accounts
    }

    /// The preferences as they are now.
    var preferences: UserPreferences {
        UserPreferences(cities: cityStore.cities, selectedCity: cityStore.selectedCity, units: units)
    }

    /// Saves the user's preferences, for their next session. Called when the session scope is reset.
    func dispose() {
        accounts.save(preferences, for: user)
    }
}
