import Assemblies

final class Quest {
    weak var knight: QuestingKnight?
}

final class QuestingKnight {
    var quest: Quest?
}

final class QuestsAssembly: Assembly, @unchecked Sendable {
    var knight: QuestingKnight {
        define { definition in
            let knight = definition *~> QuestingKnight()  // registered first
            knight.quest = self.quest
            return knight
        }
    }

    var quest: Quest {
        define { definition in
            let quest = definition *~> Quest()
            quest.knight = self.knight  // the knight being wired above
            return quest
        }
    }
}
