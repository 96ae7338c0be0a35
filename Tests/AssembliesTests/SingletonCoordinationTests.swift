import Assemblies
import Foundation
import Testing

// Two families that read each other's definitions — two root assemblies of one program that use
// each other, which is common and not a cycle — and the singletons built across them.

private final class CoordinatedLogger {}

private final class Box {
    var item: AnyObject?
    var other: AnyObject?
}

/// Lets an assembly reach a root assembly of another family, set after both exist.
private final class Peer<A: AnyObject>: @unchecked Sendable {
    // @unchecked: set once by the test before any read, then only read.
    var assembly: A?
}

private final class CrossingAppAssembly: Assembly, @unchecked Sendable {
    let network = Peer<CrossingNetworkAssembly>()
    let counter = Counter()

    var logger: CoordinatedLogger {
        define(scope: .singleton) {
            counter.tick()
            return CoordinatedLogger()
        }
    }

    var api: Box {
        define(scope: .singleton) {
            let box = Box()
            box.item = self.logger
            _ = self.network.assembly!.client
            return box
        }
    }

    var screen: Box {
        define {
            let box = Box()
            box.item = self.network.assembly!.client2
            return box
        }
    }

    /// Registered, then read back through the other family while it is being wired.
    var registry: Box {
        define(scope: .singleton) { definition in
            counter.tick()
            let registry = definition *~> Box()
            registry.item = self.network.assembly!.registryUser
            return registry
        }
    }

    /// Read back through the other family before it registers: a cycle through initializers.
    var unregistered: Box {
        define(scope: .singleton) {
            let box = Box()
            box.item = self.network.assembly!.unregisteredUser
            return box
        }
    }

    /// A singleton that points back at an object-graph instance still being wired.
    var owner: Box {
        define { definition in
            let owner = definition *~> Box()
            owner.item = self.ownedCache
            return owner
        }
    }

    var ownedCache: Box {
        define(scope: .singleton) {
            let cache = Box()
            cache.item = self.intentionallyCaptive(self.owner)  // the owner being wired, kept on purpose
            return cache
        }
    }
}

private final class CrossingNetworkAssembly: Assembly, @unchecked Sendable {
    let app = Peer<CrossingAppAssembly>()

    var client: Box {
        define {
            _ = self.app.assembly!.logger
            _ = self.app.assembly!.logger
            return Box()
        }
    }

    var client2: Box {
        define {
            let box = Box()
            box.item = self.app.assembly!.logger
            return box
        }
    }

    var registryUser: Box {
        define {
            let box = Box()
            box.item = self.app.assembly!.registry
            return box
        }
    }

    var unregisteredUser: Box {
        define {
            let box = Box()
            box.item = self.app.assembly!.unregistered
            return box
        }
    }
}

/// A singleton finished by an `afterAllInjections` step.
private final class StepWiredAssembly: Assembly, @unchecked Sendable {
    let started = DispatchSemaphore(value: 0)
    let seen = Peer<Box>()
    /// Whether the other thread found the step's work done when it got the singleton.
    let sawItWired = Peer<Box>()

    var wired: Box {
        define(scope: .singleton) { definition in
            definition.afterAllInjections { box in
                // Another thread asks for the singleton now; it must not get it before this step.
                self.started.signal()
                untilSomeoneWaits(for: self, "wired")
                box.item = CoordinatedLogger()
            }
            return Box()
        }
    }
}

private func linkedFamilies() -> (CrossingAppAssembly, CrossingNetworkAssembly) {
    let app = CrossingAppAssembly()
    let network = CrossingNetworkAssembly()
    app.network.assembly = network
    network.app.assembly = app
    return (app, network)
}

@Suite struct SingletonCoordinationTests {
    @Test func aReadThatLeavesTheFamilyAndComesBackGetsTheSingletonBuiltOnce() {
        let (app, _) = linkedFamilies()
        _ = app.api
        let logger = app.logger
        #expect(app.counter["logger"] == 1)
        #expect((app.screen.item as? Box)?.item === logger)
        #expect(app.api.item === logger)
    }

    @Test func anotherFamilyReadingASingletonBeingWiredGetsTheRegisteredInstance() {
        let (app, _) = linkedFamilies()
        let registry = app.registry
        #expect((registry.item as? Box)?.item === registry)
        #expect(app.registry === registry)
        #expect(app.counter["registry"] == 1)
    }

    @Test func anotherFamilyReadingASingletonBeforeItRegistersStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (app, _) = linkedFamilies()
            _ = app.unregistered
        }
        let message = stderr(of: result)
        #expect(message.contains("circular dependency, read again before it was registered"))
        #expect(
            message.contains(
                "CrossingAppAssembly.unregistered → CrossingNetworkAssembly.unregisteredUser → CrossingAppAssembly.unregistered"
            )
        )
    }

    @Test func aSingletonIsPublishedAsSoonAsItsBodyHasReturned() {
        let (app, _) = linkedFamilies()
        let readByAnotherThread = DispatchSemaphore(value: 0)
        let seen = Peer<CoordinatedLogger>()
        let graph = app.define(scope: .prototype) { () -> Box in
            let logger = app.logger
            // Another thread finds the logger published while this graph is still resolving.
            Thread {
                seen.assembly = app.logger
                readByAnotherThread.signal()
            }.start()
            #expect(readByAnotherThread.wait(timeout: .now() + 20) == .success)
            let box = Box()
            box.item = logger
            return box
        }
        #expect(seen.assembly === graph.item)
        #expect(app.counter["logger"] == 1)
    }

    @Test func aSingletonThatPointsAtAnInstanceBeingWiredWaitsForIt() {
        let (app, _) = linkedFamilies()
        let owner = app.owner
        let cache = app.ownedCache
        #expect(cache.item === owner)
        #expect(owner.item === cache)
    }

    @Test func readingTheFamiliesFromManyThreadsBuildsEachSingletonOnce() {
        for _ in 0..<20 {
            let (app, network) = linkedFamilies()
            onThreads(4) { thread in
                if thread % 2 == 0 {
                    _ = app.api
                } else {
                    _ = network.client2
                }
            }
            #expect(app.counter["logger"] == 1)
            #expect((app.screen.item as? Box)?.item === app.logger)
        }
    }

    @Test func aSingletonWaitsForTheStepsOfItsGraphBeforeOtherThreadsSeeIt() {
        for _ in 0..<5 {
            let assembly = StepWiredAssembly()
            let done = DispatchSemaphore(value: 0)
            Thread {
                assembly.started.wait()
                let wired = assembly.wired
                assembly.seen.assembly = wired
                assembly.sawItWired.assembly = wired.item == nil ? nil : wired
                done.signal()
            }.start()
            let wired = assembly.wired
            #expect(done.wait(timeout: .now() + 20) == .success)
            #expect(assembly.seen.assembly === wired)
            #expect(assembly.sawItWired.assembly === wired)
        }
    }
}
