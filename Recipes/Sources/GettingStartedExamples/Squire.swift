import Assemblies

final class Squire {
    var knight: Knight?
}

extension KnightsAssembly {
    func inject(_ squire: Squire) -> Squire {
        define(injecting: squire) {
            squire.knight = self.knight
            return squire
        }
    }
}
