import Assemblies
import Testing

// Each fixture below misuses the framework in one way; each test runs it in a child process and
// reads what it printed.

final class Parent {
    let child: Child
    init(child: Child) { self.child = child }
}

final class Child {
    var parent: Parent?
    init(parent: Parent?) { self.parent = parent }
}

final class Loop {
    var next: Loop?
    init(next: Loop? = nil) { self.next = next }
}

protocol Vehicle: AnyObject {}
final class Bicycle: Vehicle {}
final class Rock {}

final class MisuseAssembly: Assembly, @unchecked Sendable {
    var quests: MisuseQuestsAssembly { collaborator() }

    /// A cycle through initializers that crosses two assemblies.
    var parent: Parent { define { Parent(child: self.quests.child) } }

    /// Needs itself before it exists.
    var ouroboros: Loop {
        define { definition in
            let loop = Loop()
            loop.next = self.ouroboros
            return definition *~> loop
        }
    }

    var ping: Loop {
        define(scope: .prototype) { definition in
            let loop = definition *~> Loop()
            loop.next = self.pong
            return loop
        }
    }

    var pong: Loop {
        define(scope: .prototype) { definition in
            let loop = definition *~> Loop()
            loop.next = self.pang
            return loop
        }
    }

    var pang: Loop {
        define(scope: .prototype) { definition in
            let loop = definition *~> Loop()
            loop.next = self.ping
            return loop
        }
    }

    var bicycleLoop: Loop { define(withKey: "ride") { Loop() } }
    var bicycle: Bicycle { define(withKey: "ride") { Bicycle() } }
    var bothRides: (Loop, Bicycle) { define { (self.bicycleLoop, self.bicycle) } }

    var vehicle: any Vehicle {
        define { definition in
            definition *~> Rock()
            return Bicycle()
        }
    }

    var switched: Loop {
        define { definition in
            definition *~> Loop()
            return Loop()
        }
    }

    func wire(_ loop: Loop) -> Loop {
        define { definition in
            let loop = definition *~> loop
            return loop
        }
    }

    var twoWires: (Loop, Loop) { define { (self.wire(Loop()), self.wire(Loop())) } }

    var ambiguous: Loop {
        define { definition in
            let loop = definition *~> Loop()
            loop.next = self.ambiguousNeighbour
            return loop
        }
    }

    var ambiguousNeighbour: Loop {
        define { definition in
            let loop = definition *~> Loop()
            let found: Loop? = self.existingObjectByMatchingType()
            loop.next = found
            return loop
        }
    }

    var mirror: Loop {
        define(scope: .prototype) { definition in
            let loop = definition *~> Loop()
            loop.next = self.mirror
            return loop
        }
    }

    var twice: Loop {
        define { definition in
            definition *~> Loop()
            return definition *~> Loop()
        }
    }

    var sharedRide: Loop { define(withKey: "shared-ride") { Loop() } }
    var singletonRide: Loop { define(withKey: "shared-ride", scope: .singleton) { Loop() } }
    var bothSharedRides: (Loop, Loop) { define { (self.sharedRide, self.singletonRide) } }

    func namedLoop(_ name: String) -> Loop { define(scope: .singleton) { Loop() } }

    nonisolated(unsafe) static var kept: Definition<Loop>?

    /// A plain definition, read on other threads to give them resolvers of their own.
    var vehicleLoop: Loop { define { Loop() } }

    /// Registers through its Definition from another thread while the body waits.
    var handedToAnotherThread: Loop {
        define { definition in
            nonisolated(unsafe) let loop = Loop()
            nonisolated(unsafe) let definition = definition
            onThreads(1) { _ in definition.initObject(loop) }
            return loop
        }
    }

    var leaky: Loop {
        define { definition in
            MisuseAssembly.kept = definition
            return definition *~> Loop()
        }
    }
}

/// Two families whose definitions read each other: each crossing starts a graph of its own.
final class EastAssembly: Assembly, @unchecked Sendable {
    nonisolated(unsafe) static var west: WestAssembly?
    var east: Loop { define { Loop(next: EastAssembly.west?.west) } }
}

final class WestAssembly: Assembly, @unchecked Sendable {
    let east = EastAssembly()
    var west: Loop { define { Loop(next: self.east.east) } }
}

/// Seventy object-graph definitions in a loop, each read from the initializer of the one before:
/// the loop closes on the first, which has registered nothing. The thread's table of keys grows
/// twice while their frames are open.
final class LongLoopAssembly: Assembly, @unchecked Sendable {
    static let length = 70

    func link(_ index: Int) -> Loop {
        define(arguments: index) { Loop(next: self.link((index + 1) % Self.length)) }
    }
}

final class MisuseQuestsAssembly: Assembly, @unchecked Sendable {
    var main: MisuseAssembly { collaborator() }
    var child: Child { define { Child(parent: self.main.parent) } }
}

@Suite struct ErrorTests {
    @Test func aCycleThroughInitializersNamesTheChainAndTheFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().parent
        }
        let message = stderr(of: result)
        #expect(message.contains("circular dependency, read again before it was registered"))
        #expect(message.contains("MisuseAssembly.parent → MisuseQuestsAssembly.child → MisuseAssembly.parent"))
        #expect(message.contains("To fix this, register the instance before reading MisuseQuestsAssembly.child"))
    }

    @Test func aLongCycleThroughInitializersNamesEveryDefinitionInOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = LongLoopAssembly().link(0)
        }
        let message = stderr(of: result)
        #expect(message.contains("circular dependency, read again before it was registered"))
        // Frames of shared definitions find their keys in the table, which moved as it grew.
        let links = (0..<LongLoopAssembly.length).map { "LongLoopAssembly.link(_:) (\($0))" }
        #expect(message.contains((links + [links[0]]).joined(separator: " → ")))
    }

    @Test func aDefinitionThatNeedsItselfBeforeRegisteringStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().ouroboros
        }
        let message = stderr(of: result)
        #expect(message.contains("MisuseAssembly.ouroboros → MisuseAssembly.ouroboros"))
        #expect(message.contains("definition *~>"))
    }

    @Test func aCycleMadeOnlyOfPrototypesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().ping
        }
        let message = stderr(of: result)
        #expect(message.contains("circular dependency made only of prototypes"))
        #expect(
            message.contains("MisuseAssembly.ping → MisuseAssembly.pong → MisuseAssembly.pang → MisuseAssembly.ping")
        )
        #expect(message.contains("To fix this, give one of these definitions the .objectGraph or .singleton scope"))
    }

    @Test func anExplicitKeyUsedForTwoTypesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().bothRides
        }
        let message = stderr(of: result)
        #expect(message.contains("the key \"ride\" is used for two types"))
        #expect(message.contains("MisuseAssembly.bicycleLoop (key \"ride\") defines it as Loop"))
        #expect(message.contains("MisuseAssembly.bicycle (key \"ride\") reads it as Bicycle"))
    }

    @Test func anExplicitKeyUsedForTwoTypesInTwoGraphsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let assembly = MisuseAssembly()
            _ = assembly.bicycleLoop
            _ = assembly.bicycle
        }
        let message = stderr(of: result)
        #expect(message.contains("the key \"ride\" is used for two types"))
        #expect(message.contains("MisuseAssembly.bicycle (key \"ride\") reads it as Bicycle"))
    }

    @Test func registeringAnObjectOfAnotherTypeStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().vehicle
        }
        let message = stderr(of: result)
        #expect(message.contains("MisuseAssembly.vehicle registered an instance of Rock, which is not a Vehicle"))
    }

    @Test func returningAnotherObjectThanTheRegisteredOneStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().switched
        }
        #expect(stderr(of: result).contains("MisuseAssembly.switched registered one instance but returned another"))
    }

    @Test func aMethodWithParametersReadTwiceInOneGraphStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().twoWires
        }
        let message = stderr(of: result)
        #expect(message.contains("MisuseAssembly.wire(_:) was read twice in one object graph"))
        #expect(message.contains("define(injecting: object)"))
    }

    @Test func anAmbiguousLookupByTypeListsTheCandidates() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().ambiguous
        }
        let message = stderr(of: result)
        #expect(message.contains("found several instances of Loop"))
        #expect(message.contains("MisuseAssembly.ambiguous"))
        #expect(message.contains("MisuseAssembly.ambiguousNeighbour"))
    }

    @Test func aSingletonInAMethodWithParametersStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().namedLoop("first")
        }
        let message = stderr(of: result)
        #expect(
            message.contains(
                "MisuseAssembly.namedLoop(_:) is defined with scope .singleton in a method with parameters"
            )
        )
        #expect(
            message.contains(
                "To fix this, make the parameters part of the key with `define(scope: .singleton, arguments:"
            )
        )
    }

    @Test func aPrototypeThatReadsItselfStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().mirror
        }
        let message = stderr(of: result)
        #expect(
            message.contains(
                "circular dependency made only of prototypes: MisuseAssembly.mirror → MisuseAssembly.mirror"
            )
        )
    }

    @Test func registeringTwoInstancesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().twice
        }
        #expect(stderr(of: result).contains("MisuseAssembly.twice registered two different instances"))
    }

    @Test func anExplicitKeyUsedWithTwoScopesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().bothSharedRides
        }
        let message = stderr(of: result)
        #expect(message.contains("the key \"shared-ride\" is used with two scopes"))
        #expect(message.contains("MisuseAssembly.sharedRide (key \"shared-ride\") defines it as .objectGraph"))
    }

    @Test func aCycleBetweenTwoFamiliesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let west = WestAssembly()
            EastAssembly.west = west
            _ = west.west
        }
        let message = stderr(of: result)
        #expect(message.contains("a resolution crossed between families of assemblies 33 times without returning"))
        #expect(message.contains("EastAssembly.east → WestAssembly.west → EastAssembly.east"))
        #expect(message.contains("reach the other assembly with `collaborator()`"))
    }

    @Test func aDefinitionKeptPastItsBodyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().leaky
            MisuseAssembly.kept?.initObject(Loop())
        }
        #expect(stderr(of: result).contains("the Definition of MisuseAssembly.leaky was used after its body returned"))
        #expect(stderr(of: result).contains("use `definition` only inside the body of MisuseAssembly.leaky"))
    }

    @Test func aDefinitionKeptPastItsBodyAndUsedAfterItsThreadEndedStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            onThreads(1) { _ in _ = MisuseAssembly().leaky }
            // The thread, and its resolver, are gone.
            onThreads(4) { _ in _ = MisuseAssembly().vehicleLoop }
            MisuseAssembly.kept?.initObject(Loop())
        }
        #expect(stderr(of: result).contains("the Definition of MisuseAssembly.leaky was used after its body returned"))
    }

    @Test func aDefinitionUsedFromAnotherThreadWhileItsBodyRunsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseAssembly().handedToAnotherThread
        }
        #expect(
            stderr(of: result).contains(
                "the Definition of MisuseAssembly.handedToAnotherThread was used after its body returned, or on another thread"
            )
        )
    }
}
