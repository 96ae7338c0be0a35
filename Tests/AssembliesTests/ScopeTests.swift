import Assemblies
import Testing

private final class Engine {}

private final class Car {
    let engine: Engine
    let spare: Engine
    init(engine: Engine, spare: Engine) {
        self.engine = engine
        self.spare = spare
    }
}

private final class Garage {
    var car: Car?
    var engine: Engine?
    var wiredTimes = 0
}

private final class GarageAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var engine: Engine {
        define {
            counter.tick()
            return Engine()
        }
    }

    var prototypeEngine: Engine {
        define(scope: .prototype) { Engine() }
    }

    var car: Car {
        define { Car(engine: self.engine, spare: self.engine) }
    }

    var prototypeCar: Car {
        define(scope: .prototype) { Car(engine: self.engine, spare: self.engine) }
    }

    var carWithPrototypeEngines: Car {
        define { Car(engine: self.prototypeEngine, spare: self.prototypeEngine) }
    }

    var garage: Garage {
        define(scope: .singleton) { definition in
            counter.tick()
            let garage = definition *~> Garage()
            garage.wiredTimes += 1
            // Kept on purpose: the tests compare them with the object-graph instances of later reads.
            garage.car = self.intentionallyCaptive(self.car)
            garage.engine = self.intentionallyCaptive(self.engine)
            return garage
        }
    }
}

@Suite struct PrototypeScopeTests {
    @Test func buildsANewInstanceOnEveryRead() {
        let assembly = GarageAssembly()
        #expect(assembly.prototypeEngine !== assembly.prototypeEngine)
        let car = assembly.carWithPrototypeEngines
        #expect(car.engine !== car.spare)
    }

    @Test func readAtTopLevelStillOpensOneGraphForItsDependencies() {
        let assembly = GarageAssembly()
        let first = assembly.prototypeCar
        let second = assembly.prototypeCar
        #expect(first !== second)
        #expect(first.engine === first.spare)
        #expect(first.engine !== second.engine)
        #expect(assembly.counter["engine"] == 2)
    }
}

@Suite struct ObjectGraphScopeTests {
    @Test func sharesOneInstancePerKeyWithinATopLevelRead() {
        let assembly = GarageAssembly()
        let car = assembly.car
        #expect(car.engine === car.spare)
        #expect(assembly.counter["engine"] == 1)
    }

    @Test func startsAFreshGraphForEachTopLevelRead() {
        let assembly = GarageAssembly()
        let first = assembly.car
        let second = assembly.car
        #expect(first !== second)
        #expect(first.engine !== second.engine)
        #expect(assembly.engine !== assembly.engine)
        #expect(assembly.counter["engine"] == 4)
    }

    @Test func retainsNothingAfterTheGraphEnds() {
        let assembly = GarageAssembly()
        weak var car: Car?
        weak var engine: Engine?
        do {
            let built = assembly.car
            car = built
            engine = built.engine
            #expect(car != nil)
        }
        #expect(car == nil)
        #expect(engine == nil)
    }
}

@Suite struct SingletonScopeTests {
    @Test func isLazy() {
        let assembly = GarageAssembly()
        #expect(assembly.counter["garage"] == 0)
        _ = assembly.garage
        #expect(assembly.counter["garage"] == 1)
    }

    @Test func isBuiltAndWiredOnceAndReturnedBeforeItsBodyRuns() {
        let assembly = GarageAssembly()
        let first = assembly.garage
        let second = assembly.garage
        #expect(first === second)
        #expect(first.wiredTimes == 1)
        #expect(assembly.counter["garage"] == 1)
        #expect(first.car === assembly.garage.car)
    }

    @Test func joinsTheGraphItIsBuiltIn() {
        let assembly = GarageAssembly()
        let garage = assembly.garage
        #expect(garage.car?.engine === garage.engine)
    }

    @Test func belongsToOneFamily() {
        let first = GarageAssembly()
        let second = GarageAssembly()
        #expect(first.garage !== second.garage)
        #expect(first.garage === first.garage)
    }

    @Test func isSharedByEveryAssemblyOfTheFamily() {
        let knights = KnightsAssembly()
        #expect(knights.castle === knights.quests.camelot)
        #expect(knights.quests.knights.castle === knights.castle)
    }

    @Test func isReleasedWithItsFamily() {
        weak var garage: Garage?
        do {
            let assembly = GarageAssembly()
            garage = assembly.garage
            #expect(garage != nil)
        }
        #expect(garage == nil)
    }
}
