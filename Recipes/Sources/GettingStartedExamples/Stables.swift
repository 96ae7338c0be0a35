import Assemblies

final class Saddle {}

final class Stables {}

final class StablesAssembly: Assembly, @unchecked Sendable {
    var horse: Horse { define(scope: .prototype) { Horse() } }  // a new horse on every read
    var saddle: Saddle { define { Saddle() } }  // one per object graph
    var stables: Stables { define(scope: .singleton) { Stables() } }  // one for the family
}
