import Assemblies

final class Pantry {}

final class Oven {
    let pantry: Pantry
    init(pantry: Pantry) { self.pantry = pantry }
}

final class Kitchen {
    let oven: Oven
    let pantry: Pantry
    init(oven: Oven, pantry: Pantry) {
        self.oven = oven
        self.pantry = pantry
    }
}

final class KitchenAssembly: Assembly, @unchecked Sendable {
    var kitchen: Kitchen { define { Kitchen(oven: self.oven, pantry: self.pantry) } }
    var oven: Oven { define(scope: .singleton) { Oven(pantry: self.intentionallyCaptive(self.pantry)) } }
    var pantry: Pantry { define { Pantry() } }
}
