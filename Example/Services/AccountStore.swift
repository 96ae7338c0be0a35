/// Who is signed in, and the preferences each user saved on this device.
///
/// A stand-in for what a real app keeps on disk (its user defaults and keychain): the example keeps
/// it in memory, so every run starts with no saved preferences and "guest" signed in.
/// ``CoreComponentsAssembly`` makes it a singleton: it outlives every session.
final class AccountStore {
    /// The signed-in user's name.
    private(set) var signedInUser: String
    /// What a user who never saved anything starts with.
    let defaults: UserPreferences
    private var saved: [String: UserPreferences]

    /// Creates a store where `signedInUser` is signed in and `saved` holds what each user saved.
    ///
    /// - Parameters:
    ///   - signedInUser: The user signed in when the app starts.
    ///   - defaults: The preferences of a user who never saved any.
    ///   - saved: Each user's saved preferences, by name.
    init(signedInUser: String, defaults: UserPreferences, saved: [String: UserPreferences] = [:]) {
        self.signedInUser = signedInUser
        self.defaults = defaults
        self.saved = saved
    }

    /// Makes `user` the signed-in user. End the current user's session first (``AppDelegate`` resets
    /// the session scope), so that the next session read is `user`'s.
    func signIn(_ user: String) {
        signedInUser = user
    }

    /// What `user`'s next session starts from: what they saved, or else ``defaults``.
    func preferences(for user: String) -> UserPreferences {
        saved[user] ?? defaults
    }

    /// What `user` saved last, or nil when they never saved anything.
    func savedPreferences(for user: String) -> UserPreferences? {
        saved[user]
    }

    /// Saves `preferences` as `user`'s, replacing what they saved before.
    func save(_ preferences: UserPreferences, for user: String) {
        saved[user] = preferences
    }
}
