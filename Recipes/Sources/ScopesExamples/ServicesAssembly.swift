import Assemblies

class ServicesAssembly: Assembly, @unchecked Sendable {
    var service: Service { define(scope: .singleton) { Service() } }
}

final class TunedServicesAssembly: ServicesAssembly, @unchecked Sendable {
    override var service: Service {
        define(scope: .singleton) {
            let service = super.service  // the superclass's singleton
            service.isTuned = true
            return service
        }
    }
}

final class NamedKnightsAssembly: Assembly, @unchecked Sendable {
    func knight(named name: String) -> Knight {
        define(arguments: name) { Knight(name: name) }  // one knight per name in a graph
    }
}
