// A key made at run time doesn't compile; the message shows `withKey:` with `arguments:`.
// expect: withKey: takes a string literal, fixed when the program is compiled
// expect: keep a literal key and pass the values as arguments, which are part of the key: define(withKey: "user", arguments: id) { ... }
import Assemblies

final class UserCache {}

final class UsersAssembly: Assembly, @unchecked Sendable {
    func cache(for id: Int) -> UserCache {
        define(withKey: "user-\(id)", scope: .singleton) { UserCache() }
    }

    func wired(for id: Int) -> UserCache {
        define(withKey: "wired-\(id)") { (definition: Definition<UserCache>) in definition *~> UserCache() }
    }

    func found(for id: Int) -> UserCache? {
        existingObject(withKey: "user-\(id)")
    }
}

extension UsersAssembly {
    func withArguments(for id: Int, in region: String) -> UserCache {
        define(withKey: "user-\(region)", arguments: id) { UserCache() }
    }
}
