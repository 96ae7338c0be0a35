import Assemblies
import Testing

// A subclass of an assembly that overrides definitions and reads the superclass's with `super`.

private final class Engine {
    var isTuned = false
    var base: Engine?
    var owner: Garage?
}

private final class Garage {
    var engine: Engine?
}

private class GarageAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var engine: Engine {
        define(scope: .singleton) {
            counter.tick()
            return Engine()
        }
    }

    var spare: Engine {
        define { definition in
            counter.tick()
            let engine = definition *~> Engine()
            engine.owner = self.garage
            return engine
        }
    }

    var garage: Garage {
        define { definition in
            let garage = definition *~> Garage()
            garage.engine = self.spare
            return garage
        }
    }
}

private final class TunedGarageAssembly: GarageAssembly, @unchecked Sendable {
    /// Decorates the superclass's singleton.
    override var engine: Engine {
        define(scope: .singleton) {
            counter.tick("tuning")
            let engine = super.engine
            engine.isTuned = true
            return engine
        }
    }

    /// Registers its own instance first, then reads the superclass's.
    override var spare: Engine {
        define { definition in
            let engine = definition *~> Engine()
            engine.base = super.spare
            return engine
        }
    }
}

@Suite struct SubclassTests {
    @Test func anOverrideCanDecorateTheSuperclassDefinition() {
        let assembly = TunedGarageAssembly()
        let engine = assembly.engine
        #expect(engine.isTuned)
        #expect(assembly.engine === engine)
        #expect(assembly.counter["engine"] == 1)
        #expect(assembly.counter["tuning"] == 1)
    }

    @Test func superGivesTheSuperclassInstanceEvenWhenTheOverrideRegisteredFirst() {
        let assembly = TunedGarageAssembly()
        let spare = assembly.spare
        let base = spare.base
        #expect(base != nil)
        #expect(base !== spare)
        // The superclass's body reads the garage, which reads `spare`: the override, in this graph.
        #expect(base?.owner?.engine === spare)
        #expect(assembly.counter["spare"] == 1)
    }

    @Test func theSuperclassAloneIsUnchanged() {
        let assembly = GarageAssembly()
        #expect(!assembly.engine.isTuned)
        let spare = assembly.spare
        #expect(spare.owner?.engine === spare)
    }
}
