import Assemblies

// The knights of SPEC.md: a small world with a cycle that crosses two assemblies, a prototype,
// an explicit-key singleton and an injection method.

final class Knight {
    let name: String
    var quest: Quest?
    var horse: Horse?
    var squire: Squire?
    init(name: String) { self.name = name }
}

final class Quest {
    var knight: Knight?
}

final class Horse {}

final class Castle {
    var lord: Knight?
}

final class Squire {
    var master: Knight?
}

class KnightsAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var quests: QuestsAssembly { collaborator() }

    var knight: Knight {
        define { definition in
            counter.tick()
            let knight = definition *~> Knight(name: "Lancelot")
            knight.quest = self.quests.quest
            knight.horse = self.horse
            return knight
        }
    }

    var horse: Horse {
        define(scope: .prototype) {
            counter.tick()
            return Horse()
        }
    }

    var castle: Castle {
        define(withKey: "camelot", scope: .singleton) {
            counter.tick()
            return Castle()
        }
    }

    func inject(_ squire: Squire) -> Squire {
        define(injecting: squire) {
            counter.tick()
            squire.master = self.knight
            return squire
        }
    }
}

final class QuestsAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var knights: KnightsAssembly { collaborator() }

    var quest: Quest {
        define { definition in
            counter.tick()
            let quest = definition *~> Quest()
            quest.knight = self.knights.knight
            return quest
        }
    }

    /// Shares the key of `KnightsAssembly.castle`.
    var camelot: Castle {
        define(withKey: "camelot", scope: .singleton) { Castle() }
    }
}
