import Assemblies

final class Knight {
    let name: String
    var quest: Quest?
    init(name: String) { self.name = name }
}

final class Quest {
    weak var knight: Knight?
    let castle: Castle
    init(castle: Castle) { self.castle = castle }
}

final class Castle {}

final class KnightsAssembly: Assembly, @unchecked Sendable {
    var quests: QuestsAssembly { collaborator() }

    var knight: Knight {
        define { definition in
            let knight = definition *~> Knight(name: "Lancelot")
            knight.quest = self.quests.quest
            return knight
        }
    }
}

final class QuestsAssembly: Assembly, @unchecked Sendable {
    var knights: KnightsAssembly { collaborator() }

    var quest: Quest {
        define { definition in
            let quest = definition *~> Quest(castle: self.castle)
            quest.knight = self.knights.knight  // the knight being wired: the cycle closes
            return quest
        }
    }

    var castle: Castle { define(scope: .singleton) { Castle() } }
}
