import Assemblies

final class KnightsAssembly: Assembly, @unchecked Sendable {
    var quests: QuestsAssembly { collaborator() }

    var knight: Knight {  // one per object graph, the default scope
        define { definition in
            let knight = definition *~> Knight(name: "Lancelot")  // registered before wiring
            knight.quest = self.quests.quest  // quest.knight === knight
            knight.horse = self.horse
            return knight
        }
    }

    var horse: Horse { define(scope: .prototype) { Horse() } }  // new on every read
    var castle: Castle { define(withKey: "camelot", scope: .singleton) { Castle() } }
}

final class QuestsAssembly: Assembly, @unchecked Sendable {
    var knights: KnightsAssembly { collaborator() }

    var quest: Quest {
        define { definition in
            let quest = definition *~> Quest()
            quest.knight = self.knights.knight  // the knight being wired: the cycle closes
            return quest
        }
    }
}

let knight = KnightsAssembly().knight

// The code of the article *Assemblies* (the catalog's first page), verbatim above.
print("the cycle closes:", knight.quest?.knight === knight)
