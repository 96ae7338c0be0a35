import Assemblies

extension Scope {
    static let visit = Scope.resettable("visit")
}

final class CastleAssembly: Assembly, @unchecked Sendable {
    var horse: Horse { define(scope: .prototype) { Horse() } }  // new on every read
    var knight: Knight { define { Knight(horse: self.horse) } }  // one per object graph
    var castle: Castle { define(scope: .singleton) { Castle() } }  // one per family
    var map: Map { define(scope: .weakSingleton) { Map() } }  // one per family, while held
    var guest: Guest { define(scope: .visit) { Guest() } }  // one per family, until reset
}
