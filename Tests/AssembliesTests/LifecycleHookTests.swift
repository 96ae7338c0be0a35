import Assemblies
import Testing

/// What ran, in order, kept by the assembly that ran it.
private final class HookLog: @unchecked Sendable {
    // @unchecked: `recorded` is only touched while holding `lock`.
    private let lock = NSLockish()
    private var recorded: [String] = []

    func append(_ entry: String) {
        lock.withLock { recorded.append(entry) }
    }

    var entries: [String] { lock.withLock { recorded } }
}

private final class HookEngine {
    var isWired = false
    var hookRuns = 0
    var wasWiredWhenHookRan = false
}

private final class HookCar {
    let engine: HookEngine
    let spare: HookEngine
    var engineHookHadRunWhenCarWentOn = false
    var isReady = false
    var engineReadInStep: HookEngine?
    init(engine: HookEngine, spare: HookEngine) {
        self.engine = engine
        self.spare = spare
    }
}

private final class HookWheel {
    var hookRuns = 0
}

private final class HookBus {
    let wheels: [HookWheel]
    init(wheels: [HookWheel]) { self.wheels = wheels }
}

private final class HookGarage {
    var hookRuns = 0
}

/// A cycle through properties: the knight is registered first, its quest points back to it.
private final class HookPaladin {
    var quest: HookCrusade?
    var horse: HookSteed?
    var hookRuns = 0
}

private final class HookCrusade {
    var paladin: HookPaladin?
    var paladinHadAHorseAfterWiring = true
    var paladinHadAHorseAfterAllInjections = false
}

private final class HookSteed {}

/// A cycle entered through an initializer, closed by a step.
private final class HookKnight {
    let quest: HookQuest
    init(quest: HookQuest) { self.quest = quest }
}

private final class HookQuest {
    var knight: HookKnight?
}

private final class HookLeak {}

private final class HookAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let log = HookLog()

    var engine: HookEngine {
        define { definition in
            counter.tick()
            definition.afterWiring { engine in
                engine.hookRuns += 1
                engine.wasWiredWhenHookRan = engine.isWired
                self.log.append("engine afterWiring")
            }
            definition.afterAllInjections { _ in self.log.append("engine afterAllInjections") }
            let engine = HookEngine()
            engine.isWired = true
            log.append("engine body returns")
            return engine
        }
    }

    var car: HookCar {
        define { definition in
            definition.afterWiring { _ in self.log.append("car afterWiring") }
            definition.afterAllInjections { car in
                car.isReady = true
                self.log.append("car afterAllInjections")
            }
            let engine = self.engine
            let car = HookCar(engine: engine, spare: self.engine)
            car.engineHookHadRunWhenCarWentOn = engine.hookRuns == 1
            log.append("car body returns")
            return car
        }
    }

    /// A step that reads definitions: they join the graph the step belongs to.
    var carWithReadingStep: HookCar {
        define { definition in
            definition.afterAllInjections { car in car.engineReadInStep = self.engine }
            return HookCar(engine: self.engine, spare: self.engine)
        }
    }

    var wheel: HookWheel {
        define(scope: .prototype) { definition in
            counter.tick()
            definition.afterWiring { wheel in wheel.hookRuns += 1 }
            return HookWheel()
        }
    }

    var bus: HookBus {
        define { HookBus(wheels: [self.wheel, self.wheel, self.wheel, self.wheel]) }
    }

    var garage: HookGarage {
        define(scope: .singleton) { definition in
            counter.tick()
            definition.afterWiring { garage in
                garage.hookRuns += 1
                self.counter.tick("garage afterWiring")
            }
            definition.afterAllInjections { _ in self.counter.tick("garage afterAllInjections") }
            return HookGarage()
        }
    }

    var orderedHooks: HookGarage {
        define { definition in
            definition.afterAllInjections { _ in self.log.append("step 1") }
            definition.afterWiring { _ in self.log.append("hook 1") }
            definition.afterWiring { _ in self.log.append("hook 2") }
            definition.afterAllInjections { _ in self.log.append("step 2") }
            definition.afterWiring { _ in self.log.append("hook 3") }
            definition.afterAllInjections { _ in self.log.append("step 3") }
            return HookGarage()
        }
    }

    var paladin: HookPaladin {
        define { definition in
            counter.tick()
            let paladin = definition *~> HookPaladin()
            definition.afterWiring { paladin in paladin.hookRuns += 1 }
            paladin.quest = self.crusade
            paladin.horse = self.steed
            return paladin
        }
    }

    var crusade: HookCrusade {
        define { definition in
            let crusade = definition *~> HookCrusade()
            definition.afterWiring { crusade in
                crusade.paladinHadAHorseAfterWiring = crusade.paladin?.horse != nil
            }
            definition.afterAllInjections { crusade in
                crusade.paladinHadAHorseAfterAllInjections = crusade.paladin?.horse != nil
            }
            crusade.paladin = self.paladin
            return crusade
        }
    }

    var steed: HookSteed { define { HookSteed() } }

    var knight: HookKnight {
        define {
            counter.tick()
            return HookKnight(quest: self.quest)
        }
    }

    var quest: HookQuest {
        define { definition in
            counter.tick()
            let quest = HookQuest()
            definition.afterAllInjections { quest in quest.knight = self.knight }
            return quest
        }
    }

    /// A step whose read builds a definition that adds a step of its own.
    var herald: HookGarage {
        define { definition in
            definition.afterAllInjections { _ in self.log.append("herald step") }
            _ = self.trumpet
            return HookGarage()
        }
    }

    var trumpet: HookGarage {
        define { definition in
            definition.afterAllInjections { _ in
                self.log.append("trumpet step")
                _ = self.messenger
            }
            return HookGarage()
        }
    }

    var messenger: HookGarage {
        define { definition in
            definition.afterAllInjections { _ in self.log.append("messenger step") }
            return HookGarage()
        }
    }
}

private final class HookLeakAssembly: Assembly, @unchecked Sendable {
    nonisolated(unsafe) static var kept: Definition<HookLeak>?

    var leak: HookLeak {
        define { definition in
            HookLeakAssembly.kept = definition
            return HookLeak()
        }
    }
}

@Suite struct LifecycleHookTests {
    @Test func afterWiringRunsOnceAfterTheBodyReturnsTheWiredInstance() {
        let assembly = HookAssembly()
        let engine = assembly.engine
        #expect(engine.hookRuns == 1)
        #expect(engine.wasWiredWhenHookRan)
        #expect(
            assembly.log.entries == ["engine body returns", "engine afterWiring", "engine afterAllInjections"]
        )
    }

    @Test func afterWiringRunsBeforeTheDefinitionThatReadTheInstanceGoesOn() throws {
        let assembly = HookAssembly()
        let car = assembly.car
        #expect(car.engineHookHadRunWhenCarWentOn)
        let entries = assembly.log.entries
        let hook = try #require(entries.firstIndex(of: "engine afterWiring"))
        let carGoesOn = try #require(entries.firstIndex(of: "car body returns"))
        #expect(hook < carGoesOn)
    }

    @Test func afterWiringDoesNotRunWhenAnInstanceAlreadyInTheGraphIsReused() {
        let assembly = HookAssembly()
        let car = assembly.car
        #expect(car.engine === car.spare)
        #expect(car.engine.hookRuns == 1)
        #expect(assembly.counter["engine"] == 1)
        #expect(assembly.log.entries.filter { $0 == "engine afterWiring" }.count == 1)
    }

    @Test func afterWiringDoesNotRunWhenACachedSingletonIsReused() {
        let assembly = HookAssembly()
        let garage = assembly.garage
        #expect(assembly.garage === garage)
        #expect(assembly.garage === garage)
        #expect(garage.hookRuns == 1)
        #expect(assembly.counter["garage"] == 1)
        #expect(assembly.counter["garage afterWiring"] == 1)
        #expect(assembly.counter["garage afterAllInjections"] == 1)
    }

    @Test func afterWiringDoesNotRunForTheInstanceBeingWiredWhenACycleComesBack() {
        let assembly = HookAssembly()
        let paladin = assembly.paladin
        #expect(paladin.quest?.paladin === paladin)
        #expect(paladin.hookRuns == 1)
        #expect(assembly.counter["paladin"] == 1)
    }

    @Test func afterWiringRunsOnEveryBuildOfAPrototype() {
        let assembly = HookAssembly()
        let bus = assembly.bus
        #expect(bus.wheels.count == 4)
        #expect(bus.wheels.allSatisfy { $0.hookRuns == 1 })
        #expect(assembly.counter["wheel"] == 4)
        let wheel = assembly.wheel
        #expect(wheel.hookRuns == 1)
        #expect(assembly.counter["wheel"] == 5)
    }

    @Test func hooksAndStepsRunInTheOrderTheyWereAddedHooksFirst() {
        let assembly = HookAssembly()
        _ = assembly.orderedHooks
        #expect(assembly.log.entries == ["hook 1", "hook 2", "hook 3", "step 1", "step 2", "step 3"])
    }

    @Test func afterAllInjectionsSeesTheWholeGraphWired() {
        let assembly = HookAssembly()
        let paladin = assembly.paladin
        let crusade = paladin.quest
        #expect(crusade?.paladin === paladin)
        #expect(paladin.horse != nil)
        #expect(crusade?.paladinHadAHorseAfterWiring == false)
        #expect(crusade?.paladinHadAHorseAfterAllInjections == true)
    }

    @Test func afterAllInjectionsRunsAfterEveryAfterWiringHookDependencyFirst() {
        let assembly = HookAssembly()
        let car = assembly.car
        #expect(car.isReady)
        #expect(
            assembly.log.entries == [
                "engine body returns",
                "engine afterWiring",
                "car body returns",
                "car afterWiring",
                "engine afterAllInjections",
                "car afterAllInjections",
            ]
        )
    }

    @Test func stepsAddedByReadsInAStepRunAfterTheOthers() {
        let assembly = HookAssembly()
        _ = assembly.herald
        #expect(assembly.log.entries == ["trumpet step", "herald step", "messenger step"])
    }

    @Test func aStepClosesACycleEnteredFromTheInitializerSide() {
        let assembly = HookAssembly()
        let knight = assembly.knight
        #expect(knight.quest.knight === knight)
        #expect(assembly.counter["knight"] == 1)
        #expect(assembly.counter["quest"] == 1)
    }

    @Test func aStepClosesTheCycleWhenTheOtherSideIsReadFirst() {
        let assembly = HookAssembly()
        let quest = assembly.quest
        #expect(quest.knight?.quest === quest)
        #expect(assembly.counter["knight"] == 1)
        #expect(assembly.counter["quest"] == 1)
    }

    @Test func readsInAStepJoinTheSameGraph() {
        let assembly = HookAssembly()
        let car = assembly.carWithReadingStep
        #expect(car.engineReadInStep === car.engine)
        #expect(car.engine === car.spare)
        #expect(assembly.counter["engine"] == 1)
    }

    @Test func eachTopLevelReadRunsItsOwnHooks() {
        let assembly = HookAssembly()
        let first = assembly.engine
        let second = assembly.engine
        #expect(first !== second)
        #expect(first.hookRuns == 1)
        #expect(second.hookRuns == 1)
        #expect(assembly.log.entries.filter { $0 == "engine afterAllInjections" }.count == 2)
    }

    @Test func afterWiringOnADefinitionKeptPastItsBodyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = HookLeakAssembly().leak
            HookLeakAssembly.kept?.afterWiring { _ in }
        }
        #expect(stderr(of: result).contains("the Definition of HookLeakAssembly.leak was used after its body returned"))
    }

    @Test func afterAllInjectionsOnADefinitionKeptPastItsBodyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = HookLeakAssembly().leak
            HookLeakAssembly.kept?.afterAllInjections { _ in }
        }
        let message = stderr(of: result)
        #expect(message.contains("the Definition of HookLeakAssembly.leak was used after its body returned"))
        #expect(message.contains("don't keep the parameter"))
    }
}
