import Assemblies

// What the article *Choosing a Scope* builds, for its blocks in this module.

final class Horse {}

final class Knight {
    let name: String
    let horse: Horse?
    init(horse: Horse) {
        name = "Lancelot"
        self.horse = horse
    }
    init(name: String) {
        self.name = name
        horse = nil
    }
}

final class Castle {}
final class Map {}
final class Guest {}
final class Document {}

final class Database {
    let path: String
    init(path: String) { self.path = path }
}

final class Analytics {
    let database: Database
    init(database: Database) { self.database = database }
}

final class CoreAssembly: Assembly, @unchecked Sendable {
    var clock: Horse { define(scope: .singleton) { Horse() } }
    override func buildEagerSingletons() { _ = clock }
}

final class User {
    static func loggedIn() -> User { User() }
}

final class Cart {
    let session: Session
    init(session: Session) { self.session = session }
}

final class Service {
    var isTuned = false
}
