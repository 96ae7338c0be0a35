import Assemblies
import Foundation
import Testing

private final class Top {
    var left: Side?
    var right: Side?
}

private final class Side {
    var top: Top?
    var bottom: Bottom?
}

private final class Bottom {}

private final class Registry {
    private(set) var isWired = false
    var clock: Clock?
    func finishWiring() { isWired = true }
}

private final class Clock {
    var registry: Registry?
}

private final class DiamondAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var top: Top {
        define { definition in
            counter.tick()
            let top = definition *~> Top()
            top.left = self.left
            top.right = self.right
            return top
        }
    }

    var left: Side { side() }
    var right: Side { side() }

    var bottom: Bottom {
        define {
            counter.tick()
            return Bottom()
        }
    }

    /// Built slowly, so that many threads ask for it while it is being built.
    var registry: Registry {
        define(scope: .singleton) { definition in
            counter.tick()
            let registry = definition *~> Registry()
            registry.clock = self.clock
            for _ in 0..<2_000 { _ = self.intentionallyCaptive(self.bottom) }  // read only while it is built
            registry.finishWiring()
            return registry
        }
    }

    var clock: Clock {
        define(scope: .singleton) { definition in
            counter.tick()
            let clock = definition *~> Clock()
            clock.registry = self.registry
            return clock
        }
    }

    private func side(function: StaticString = #function) -> Side {
        define(function: function) { definition in
            let side = definition *~> Side()
            side.top = self.top
            side.bottom = self.bottom
            return side
        }
    }
}

private final class PingAssembly: Assembly, @unchecked Sendable {
    var pong: PongAssembly { collaborator() }
    var ping: Clock {
        define(scope: .singleton) { definition in
            let clock = definition *~> Clock()
            clock.registry = self.pong.pong
            return clock
        }
    }
}

private final class PongAssembly: Assembly, @unchecked Sendable {
    var ping: PingAssembly { collaborator() }
    var pong: Registry {
        define(scope: .singleton) { definition in
            let registry = definition *~> Registry()
            registry.clock = self.ping.ping
            registry.finishWiring()
            return registry
        }
    }
}

/// An object-graph instance that reads a singleton pointing back at it, then finishes its wiring.
private final class Owner {
    var registry: Registry?
    private(set) var isWired = false
    func finishWiring() { isWired = true }
}

private final class OwnedRegistry {
    var owner: Owner?
}

private final class OwnerAssembly: Assembly, @unchecked Sendable {
    var owner: Owner {
        define { definition in
            let owner = definition *~> Owner()
            _ = self.registry
            for _ in 0..<2_000 { _ = Bottom() }
            owner.finishWiring()
            return owner
        }
    }

    var registry: OwnedRegistry {
        define(scope: .singleton) { definition in
            let registry = definition *~> OwnedRegistry()
            registry.owner = self.intentionallyCaptive(self.owner)  // the owner being wired, kept on purpose
            return registry
        }
    }
}

/// A definition whose body starts a resolution of another family, and one that waits for another thread.
private final class RelayAssembly: Assembly, @unchecked Sendable {
    let other = DiamondAssembly()

    var relayedTop: Top { define { self.other.top } }

    var topFromAnotherThread: (Top, Top) {
        define {
            let local = self.top
            let box = ResultBox()
            onThreads(1) { _ in box.set(self.top) }
            return (local, box.get())
        }
    }

    var top: Top { define { Top() } }
}

private final class ResultBox: @unchecked Sendable {
    // @unchecked: written by one thread before `onThreads` returns, read afterwards.
    private var top: Top?
    func set(_ top: Top) { self.top = top }
    func get() -> Top { top! }
}

private final class Lamp {
    var isOn = false
}

private final class Ticket: Disposable {
    let counter: Counter
    let lamp: Lamp
    init(counter: Counter, lamp: Lamp) {
        self.counter = counter
        self.lamp = lamp
    }
    func dispose() { counter.tick("dispose") }
}

extension Scope {
    fileprivate static let concurrencyShift = Scope.resettable("concurrency-shift")
}

private final class StoredScopesAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var lamp: Lamp {
        define(scope: .weakSingleton) {
            counter.tick("lamp")
            let lamp = Lamp()
            lamp.isOn = true
            return lamp
        }
    }

    var ticket: Ticket {
        define(scope: .concurrencyShift) {
            counter.tick("ticket")
            return Ticket(counter: counter, lamp: self.shiftLamp)
        }
    }

    var shiftLamp: Lamp { define(scope: .concurrencyShift) { Lamp() } }

    let started = DispatchSemaphore(value: 0)
    /// Signalled by a test once it has reset the scope while the first ticket was being built.
    let resetDone = DispatchSemaphore(value: 0)
    private let isFirstTicket = Guarded(true)

    /// A ticket whose first build signals `started`, then goes on only once the test has reset the
    /// scope: the reset happens while the instance is being built.
    var slowTicket: Ticket {
        define(scope: .concurrencyShift) {
            counter.tick("ticket")
            if isFirstTicket.withLock({ first in
                defer { first = false }
                return first
            }) {
                started.signal()
                resetDone.wait()
            }
            return Ticket(counter: counter, lamp: Lamp())
        }
    }

    func seat(_ row: Int) -> Lamp { define(scope: .singleton, arguments: row) { Lamp() } }

    override func buildEagerSingletons() {
        _ = seat(1)
        _ = seat(2)
    }
}

@Suite struct ConcurrencyTests {
    @Test func graphsResolvedInParallelNeverShareObjects() {
        let assembly = DiamondAssembly()
        let threads = 8
        let reads = 500
        let failures = Counter()
        onThreads(threads) { _ in
            for _ in 0..<reads {
                let top = assembly.top
                if top.left?.top !== top || top.right?.top !== top { failures.tick("cycle") }
                if top.left?.bottom !== top.right?.bottom || top.left === top.right { failures.tick("sharing") }
            }
        }
        #expect(failures["cycle"] == 0)
        #expect(failures["sharing"] == 0)
        #expect(assembly.counter["top"] == threads * reads)
        #expect(assembly.counter["bottom"] == threads * reads)
    }

    @Test func aSingletonIsBuiltOnceAndNeverSeenHalfWired() {
        for _ in 0..<20 {
            let assembly = DiamondAssembly()
            let seen = Counter()
            let registries = SharedArray<ObjectIdentifier>()
            onThreads(6) { thread in
                let registry = thread.isMultiple(of: 2) ? assembly.registry : assembly.clock.registry!
                if !registry.isWired { seen.tick("half-wired") }
                registries.append(ObjectIdentifier(registry))
            }
            #expect(seen["half-wired"] == 0)
            #expect(Set(registries.values).count == 1)
            #expect(assembly.counter["registry"] == 1)
            #expect(assembly.counter["clock"] == 1)
        }
    }

    @Test func aSingletonIsNotSeenBeforeTheGraphThatBuiltItIsWired() {
        for _ in 0..<60 {
            let assembly = OwnerAssembly()
            let seen = Counter()
            onThreads(4) { thread in
                if thread == 0 {
                    _ = assembly.owner
                } else if assembly.registry.owner?.isWired != true {
                    seen.tick("half-wired owner")
                }
            }
            #expect(seen["half-wired owner"] == 0)
        }
    }

    @Test func twoAssembliesOfAFamilyUsedFromTwoThreadsDoNotDeadlock() {
        for _ in 0..<50 {
            let ping = PingAssembly()
            let pong = ping.pong
            let clocks = SharedArray<ObjectIdentifier>()
            onThreads(2) { thread in
                let clock = thread == 0 ? ping.ping : pong.pong.clock!
                clocks.append(ObjectIdentifier(clock))
                if clock.registry?.clock !== clock { clocks.append(ObjectIdentifier(Clock())) }
            }
            #expect(Set(clocks.values).count == 1)
        }
    }

    @Test func aBodyMayResolveAnotherFamilyOrWaitForAnotherThread() {
        let relay = RelayAssembly()
        let top = relay.relayedTop
        #expect(top.left?.top === top)
        let (local, remote) = relay.topFromAnotherThread
        #expect(local !== remote)
    }

    @Test func tasksShareAnAssemblyAndItsSingletons() async {
        let assembly = DiamondAssembly()
        let identities = await withTaskGroup(of: (Bool, ObjectIdentifier).self) { group in
            for _ in 0..<200 {
                group.addTask {
                    let top = assembly.top
                    return (top.left?.bottom === top.right?.bottom, ObjectIdentifier(assembly.registry))
                }
            }
            var results: [(Bool, ObjectIdentifier)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(identities.allSatisfy { $0.0 })
        #expect(Set(identities.map(\.1)).count == 1)
        #expect(assembly.counter["registry"] == 1)
    }

    @Test func aWeakSingletonHeldOutsideIsSharedByEveryThread() {
        let assembly = StoredScopesAssembly()
        let lamp = assembly.lamp
        let held = ObjectIdentifier(lamp)
        let others = Counter()
        onThreads(8) { _ in
            for _ in 0..<300 where ObjectIdentifier(assembly.lamp) != held { others.tick("other") }
        }
        withExtendedLifetime(lamp) {}
        #expect(others["other"] == 0)
        #expect(assembly.counter["lamp"] == 1)
    }

    @Test func aWeakSingletonReleasedAndRebuiltUnderContentionIsAlwaysWhole() {
        let assembly = StoredScopesAssembly()
        let failures = Counter()
        onThreads(8) { _ in
            for _ in 0..<300 {
                let lamp = assembly.lamp
                if !lamp.isOn || assembly.lamp !== lamp { failures.tick("failure") }
            }
        }
        #expect(failures["failure"] == 0)
        #expect(assembly.counter["lamp"] >= 1)
    }

    @Test func resettingAScopeWhileThreadsReadItDisposesEachInstanceOnce() {
        let assembly = StoredScopesAssembly()
        let tickets = SharedArray<ObjectIdentifier>()
        onThreads(6) { thread in
            for _ in 0..<200 {
                if thread == 0 {
                    assembly.reset(.concurrencyShift)
                } else {
                    tickets.append(ObjectIdentifier(assembly.ticket))
                }
            }
        }
        assembly.reset(.concurrencyShift)
        #expect(assembly.counter["dispose"] == assembly.counter["ticket"])
        #expect(Set(tickets.values).count <= assembly.counter["ticket"])
    }

    @Test func aResetWaitsForAnInstanceBeingBuiltAndDropsIt() {
        let assembly = StoredScopesAssembly()
        let built = SharedArray<ObjectIdentifier>()
        onThreads(2) { thread in
            if thread == 0 {
                built.append(ObjectIdentifier(assembly.slowTicket))
            } else {
                assembly.started.wait()
                assembly.reset(.concurrencyShift)
                assembly.resetDone.signal()
            }
        }
        #expect(assembly.counter["dispose"] == 1)
        #expect(built.values.count == 1)
        _ = assembly.slowTicket
        #expect(assembly.counter["ticket"] == 2)
    }

    @Test func activatingFromTwoThreadsBuildsEachEagerSingletonOnce() {
        for _ in 0..<20 {
            let assembly = StoredScopesAssembly()
            let seats = SharedArray<ObjectIdentifier>()
            onThreads(4) { thread in
                if thread < 2 {
                    assembly.activate()
                } else {
                    seats.append(ObjectIdentifier(assembly.seat(1)))
                }
            }
            #expect(Set(seats.values).count == 1)
            #expect(assembly.seat(1) === assembly.seat(1))
            #expect(assembly.seat(1) !== assembly.seat(2))
        }
    }
}

/// An array appended to from many threads.
private final class SharedArray<Element>: @unchecked Sendable {
    // @unchecked: `storage` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storage: [Element] = []
    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var values: [Element] { lock.withLock { storage } }
}
