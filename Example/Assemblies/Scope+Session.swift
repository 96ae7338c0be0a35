import Assemblies

extension Scope {
    /// The signed-in user's session: what belongs to one user for as long as they stay signed in.
    ///
    /// Its instances are shared like singletons until ``AppDelegate`` resets the scope — when another
    /// user signs in, and when the app quits. Resetting it disposes of the ``UserSession`` (which saves
    /// the user's preferences) and leaves the singletons, such as the theme and the weather client, alone.
    static let session = Scope.resettable("session")
}
