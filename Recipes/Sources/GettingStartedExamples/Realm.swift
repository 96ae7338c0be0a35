import Assemblies

final class Realm {
    let knight: Knight
    let stables: Stables
    init(knight: Knight, stables: Stables) {
        self.knight = knight
        self.stables = stables
    }
}

final class RealmAssembly: Assembly, @unchecked Sendable {
    var stables: StablesAssembly { collaborator() }
    var knights: KnightsAssembly { collaborator() }

    var realm: Realm { define { Realm(knight: self.knights.knight, stables: self.stables.stables) } }
}
