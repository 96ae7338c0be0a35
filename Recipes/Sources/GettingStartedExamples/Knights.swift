import Assemblies

final class Horse {}

final class Knight {
    let name: String
    let horse: Horse

    init(name: String, horse: Horse) {
        self.name = name
        self.horse = horse
    }
}

final class KnightsAssembly: Assembly, @unchecked Sendable {
    var knight: Knight { define { Knight(name: "Lancelot", horse: self.horse) } }
    var horse: Horse { define { Horse() } }
}
