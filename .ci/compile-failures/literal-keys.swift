// Literal keys, with and without arguments, still pick the available overloads.
// expect: compiles
import Assemblies

final class UserCache {}

final class UsersAssembly: Assembly, @unchecked Sendable {
    var shared: UserCache { define(withKey: "shared", scope: .singleton) { UserCache() } }

    var wired: UserCache {
        define(withKey: "wired") { definition in definition *~> UserCache() }
    }

    func cache(for id: Int) -> UserCache {
        define(withKey: "user", scope: .singleton, arguments: id) { UserCache() }
    }

    func wired(for id: Int) -> UserCache {
        define(withKey: "user-wired", arguments: id) { definition in definition *~> UserCache() }
    }

    var found: UserCache? { existingObject(withKey: "shared") }
}
