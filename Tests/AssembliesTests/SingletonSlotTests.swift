import Testing

@testable import Assemblies

private final class Instance {}

private final class SlotAssembly: Assembly, @unchecked Sendable {
    var shared: Instance { define(scope: .singleton) { Instance() } }
}

/// The slot's state machine driven by hand, without threads: each `ResolverThread` stands for a
/// simulated thread, and each event is called as the store calls it, with its lock held.
/// `DESIGN-singletons.md` names the cases.
@Suite("Singleton slot state machine")
struct SingletonSlotTests {
    private let key = DefinitionKey(
        assembly: SlotAssembly.self,
        member: "shared",
        type: Instance.self,
        explicitKey: nil,
        file: #fileID,
        line: #line,
        argumentBits: 0,
        arguments: nil
    )

    private func slot(_ scope: Scope = .singleton) -> SingletonSlot {
        SingletonSlot(key: key, scope: scope)
    }

    private func frame(of thread: ResolverThread, _ index: Int = 0) -> FrameReference {
        FrameReference(thread: thread, resolver: UInt64(thread.number), frame: index, serial: UInt64(index + 1))
    }

    private func chain(_ keys: DefinitionKey...) -> BuildChain {
        BuildChain(keys.map(StoredKey.init), after: nil)
    }

    @discardableResult
    private func claim(_ slot: SingletonSlot, by thread: ResolverThread) -> SingletonSlot.Claimed {
        slot.claim(by: thread, in: frame(of: thread), chain: { chain(key) })
    }

    @Test func theFirstClaimBuildsAndTheBuildersOwnGraphsGetTheInstanceInFlight() {
        let slot = slot()
        let builder = ResolverThread()
        guard case .build = claim(slot, by: builder) else {
            Issue.record("the first claim builds")
            return
        }
        guard case .inFlight(let nothing, _) = claim(slot, by: builder), nothing == nil else {
            Issue.record("case A: before `*~>`, the builder's own reads get nothing in flight")
            return
        }
        let instance = Instance()
        slot.register(instance)
        guard case .inFlight(let object?, let builderFrame) = claim(slot, by: builder) else {
            Issue.record("case A: after `*~>`, the builder's own reads get its registered instance")
            return
        }
        #expect(same(object, instance))
        #expect(builderFrame == frame(of: builder))
    }

    @Test func anotherThreadWaitsAndIsWokenWhenTheSlotIsPublished() {
        let slot = slot()
        let (builder, reader) = (ResolverThread(), ResolverThread())
        claim(slot, by: builder)
        guard case .busy(let owner) = claim(slot, by: reader) else {
            Issue.record("case B: busy")
            return
        }
        #expect(same(owner, builder))
        slot.add(.thread(reader))
        let instance = Instance()
        let (ended, dropped) = slot.publish(instance)
        #expect(dropped == nil)
        #expect(ended.wakeup?.threads.map(ObjectIdentifier.init) == [ObjectIdentifier(reader)], "the thread is woken")
        #expect(ended.wakeup?.waiters.map(ObjectIdentifier.init) == [ObjectIdentifier(reader)])
        guard case .instance(let object) = claim(slot, by: reader) else {
            Issue.record("published")
            return
        }
        #expect(same(object, instance))
        #expect(slot.waiters.isEmpty, "a finished slot keeps no waiter")
        slot.removeWaiter(reader)  // the woken thread unregisters itself: nothing left to remove
    }

    @Test func aHeldSlotIsHandedOnlyToTheThreadItWaitsFor() {
        let slot = slot()
        let (builder, other) = (ResolverThread(), ResolverThread())
        claim(slot, by: builder)
        let instance = Instance()
        slot.register(instance)
        let (released, wakeup) = slot.hold(instance, until: frame(of: builder, 0))
        #expect(same(released, instance), "the registered reference is let go outside the lock")
        #expect(wakeup == nil, "case D: held for the builder's own frame, the owner didn't change")
        guard case .instance(let object) = claim(slot, by: builder) else {
            Issue.record("the owner gets it")
            return
        }
        #expect(same(object, instance))
        guard case .busy(let owner) = claim(slot, by: other) else {
            Issue.record("others wait")
            return
        }
        #expect(same(owner, builder))
        #expect(slot.hasFinished)
        #expect(slot.publishedObject == nil, "not whole yet")
    }

    @Test func holdingForAnotherThreadsFrameChangesTheOwnerAndWakesWaitersOnce() {
        let slot = slot()
        let (builder, dependency, waiter) = (ResolverThread(), ResolverThread(), ResolverThread())
        claim(slot, by: builder)
        slot.add(.thread(waiter))
        let instance = Instance()
        let wakeup = slot.hold(instance, until: frame(of: dependency)).wakeup
        #expect(wakeup?.threads.count == 1, "the owner changed: waiters look for a cycle again")
        #expect(slot.owner === dependency)
        #expect(slot.hold(instance, until: frame(of: dependency, 1)).wakeup == nil, "same owner: nobody to wake")
        #expect(slot.takenBy == nil)
        guard case .held(let object, let held, let holder) = slot.take(through: { chain(key, key) }) else {
            Issue.record("take")
            return
        }
        #expect(same(object, instance) && holder === builder && held == frame(of: dependency, 1))
        #expect(
            slot.takenBy?.definitions.count == 2,
            "the first taker's chain, named if the holder's graph gives it up"
        )
        _ = slot.take(through: { chain(key) })
        #expect(slot.takenBy?.definitions.count == 2, "only the first taker's")
        #expect(slot.waiters.isEmpty, "a woken thread is no longer a waiter: it registers again if it must")
    }

    @Test func takingToBreakACycleOfWaitsGetsTheRegisteredInstanceOrNamesTheChain() {
        let slot = slot()
        let builder = ResolverThread()
        claim(slot, by: builder)
        guard case .initializerCycle(let chain) = slot.take(through: { chain(key) }) else {
            Issue.record("case C: nothing registered is a cycle through initializers")
            return
        }
        #expect(chain.definitions.map(\.description) == [key.description])
        let instance = Instance()
        slot.register(instance)
        guard case .inFlight(let object, let builderFrame) = slot.take(through: { self.chain(key) }) else {
            Issue.record("taken")
            return
        }
        #expect(same(object, instance) && builderFrame == frame(of: builder))
    }

    @Test func aSlotOwnedBelowTheReaderOnItsThreadNamesTheChainInsteadOfWaiting() {
        let slot = slot()
        let (below, reader) = (ResolverThread(), ResolverThread())
        reader.host = ObjectIdentifier(below)  // the reader's graph runs above `below`'s on one thread
        claim(slot, by: below)
        guard case .heldBelow(let chain) = claim(slot, by: reader) else {
            Issue.record("held below")
            return
        }
        #expect(chain.definitions.map(\.description) == [key.description])
    }

    @Test func abandoningWakesEveryWaiterReleasesTheInstanceAndLetsTheNextClaimBuild() async {
        let slot = slot()
        let (builder, thread) = (ResolverThread(), ResolverThread())
        let task = SingletonStore.TaskWaiter(thread: ResolverThread())
        claim(slot, by: builder)
        slot.add(.thread(thread))
        let instance = Instance()
        slot.register(instance)
        let outcome = await withUnsafeContinuation { continuation in
            task.resume = { continuation.resume(returning: $0) }
            slot.add(.task(task))
            let ended = slot.abandon()
            #expect(ended.wakeup?.threads.count == 1)
            #expect(ended.wakeup?.waiters.count == 2, "case F: every waiter, thread and task")
            #expect(ended.released.count == 1 && same(ended.released[0], instance))
            #expect(task.resume == nil, "a task is resumed once")
            for resume in ended.wakeup?.tasks ?? [] { resume(.changed) }
        }
        guard case .changed = outcome else {
            Issue.record("the task claims again")
            return
        }
        guard case .build = claim(slot, by: thread) else {
            Issue.record("the next claim builds")
            return
        }
    }

    @Test func aSlotDroppedWhileBuildingIsDisposedOfInsteadOfPublished() {
        let slot = slot(.resettable("slot-test"))
        let builder = ResolverThread()
        claim(slot, by: builder)
        #expect(slot.drop())
        let instance = Instance()
        let (_, dropped) = slot.publish(instance)
        #expect(same(dropped, instance))
        #expect(slot.publishedObject == nil)
        guard case .build = claim(slot, by: builder) else {
            Issue.record("built again")
            return
        }
        #expect(slot.drop())
        _ = slot.abandon()
        #expect(!slot.drop(), "nothing to drop once gone")
    }

    @Test func weakeningKeepsAWholeInstanceWeaklyAndLeavesABuildAlone() {
        let slot = slot()
        let builder = ResolverThread()
        claim(slot, by: builder)
        #expect(slot.weaken() == nil, "a slot being built keeps its build")
        #expect(slot.isUnfinished)
        var instance: Instance? = Instance()
        _ = slot.publish(instance!)
        #expect(same(slot.weaken(), instance), "the strong reference, handed to the store to let go of")
        #expect(slot.weaken() == nil, "once")
        do {
            guard case .instance(let object) = claim(slot, by: ResolverThread()) else {
                Issue.record("while something holds it, every read gets it")
                return
            }
            #expect(same(object, instance))
        }
        instance = nil
        guard case .build = claim(slot, by: builder) else {
            Issue.record("once it is gone, a read builds again")
            return
        }
    }

    @Test func aReleasedWeakSingletonIsBuiltAgainInItsSlot() {
        let slot = slot(.weakSingleton)
        let builder = ResolverThread()
        claim(slot, by: builder)
        var instance: Instance? = Instance()
        _ = slot.publish(instance!)
        do {
            guard case .instance(let object) = claim(slot, by: ResolverThread()) else {
                Issue.record("alive")
                return
            }
            #expect(same(object, instance))
        }
        instance = nil
        #expect(!slot.hasFinished, "the slot didn't keep it")
        guard case .build = claim(slot, by: builder) else {
            Issue.record("released: built again")
            return
        }
    }

    @Test func aNewBuildOfAReleasedWeakSingletonStartsWithoutTheWaitersOfTheLastOne() {
        let slot = slot(.weakSingleton)
        let (first, waiter, second) = (ResolverThread(), ResolverThread(), ResolverThread())
        claim(slot, by: first)
        slot.add(.thread(waiter))
        slot.add(.thread(waiter))
        #expect(slot.waiters.count == 1, "a thread waits once")
        do { _ = slot.publish(Instance()) }  // released at once: nothing else keeps it
        guard case .build = claim(slot, by: second) else {
            Issue.record("released: built again")
            return
        }
        #expect(slot.waiters.isEmpty, "the last build's waiters were let go: each registers again")
        slot.add(.thread(waiter))
        let (ended, _) = slot.publish(Instance())
        #expect(ended.wakeup?.waiters.map(ObjectIdentifier.init) == [ObjectIdentifier(waiter)])
    }

    /// Simulated threads and tasks claim, wait, register, hold, publish, abandon, drop and cancel on
    /// one slot, in a seeded random order. After every step: at most one of them builds or holds it;
    /// an instance is whole only after a publication, and every read of it is the same instance;
    /// every waiter is either still registered or was woken exactly once since it began waiting —
    /// none is lost, and a task is resumed once.
    @Test(arguments: 1...25)
    func aSeededRandomInterleavingKeepsTheInvariants(_ seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let slot = slot(.resettable("slot-random"))
        let waiters = (0..<6).map { index in
            index < 4
                ? SingletonSlot.Waiter.thread(ResolverThread())
                : .task(SingletonStore.TaskWaiter(thread: ResolverThread()))
        }
        enum Phase: Equatable { case idle, building, holding, waiting, done }
        var phases = Array(repeating: Phase.idle, count: waiters.count)
        var wakes = Array(repeating: 0, count: waiters.count)
        var published: Instance?
        var builds = 0

        /// Every waiter woken is told once, and leaves the slot.
        func received(_ wakeup: SingletonSlot.Wakeup?, ended: Bool) {
            let woken = wakeup?.waiters.map(ObjectIdentifier.init) ?? []
            #expect(Set(woken).count == woken.count, "a waiter was woken twice by one change")
            for (index, waiter) in waiters.enumerated() where woken.contains(ObjectIdentifier(waiter.identity)) {
                #expect(phases[index] == .waiting, "only a waiter is woken")
                wakes[index] += 1
                phases[index] = .idle
            }
            for phase in phases where phase == .waiting {
                #expect(!ended, "a waiter was lost when the slot ended")
            }
        }

        for _ in 0..<500 {
            let index = Int.random(in: 0..<waiters.count, using: &random)
            let waiter = waiters[index]
            let thread = waiter.identity
            switch phases[index] {
            case .idle, .done:
                wakes[index] = 0
                switch claim(slot, by: thread) {
                case .build:
                    #expect(!phases.contains(.building) && !phases.contains(.holding), "one builder at a time")
                    builds += 1
                    phases[index] = .building
                case .instance(let object):
                    #expect(published == nil || same(object, published), "one published instance")
                    #expect(slot.owner == nil || slot.owner === thread)
                    phases[index] = .done
                case .busy(let owner):
                    #expect(owner !== thread)
                    slot.add(waiter)
                    phases[index] = .waiting
                case .inFlight, .heldBelow:
                    Issue.record("no simulated waiter runs below another")
                }
            case .building, .holding:
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    if phases[index] == .building { slot.register(Instance()) }
                case 1:
                    let instance = Instance()
                    let (ended, dropped) = slot.publish(instance)
                    if dropped == nil { published = instance }
                    received(ended.wakeup, ended: true)
                    phases[index] = .done
                case 2:
                    received(slot.abandon().wakeup, ended: true)
                    phases[index] = .idle
                case 3:
                    // Held for its own frame: the owner stays, nobody is woken.
                    let (_, wakeup) = slot.hold(Instance(), until: frame(of: thread))
                    #expect(wakeup == nil)
                    phases[index] = .holding
                default:
                    slot.drop()
                }
            case .waiting:
                if waiter.isTask && Bool.random(using: &random) {
                    // Cancelled: it leaves, and is never woken after.
                    slot.removeWaiter(thread)
                    phases[index] = .idle
                } else {
                    #expect(slot.waiters.contains { $0.identity === thread }, "a waiter stays until woken")
                }
            }
            let owners = phases.filter { $0 == .building || $0 == .holding }.count
            #expect(owners == (slot.owner == nil ? 0 : 1))
            if published != nil, let object = slot.publishedObject { #expect(same(object, published)) }
            for (index, count) in wakes.enumerated() { #expect(count <= 1, "waiter \(index) woken twice") }
        }
        #expect(builds >= 1)
    }
}

extension SingletonSlot.Waiter {
    fileprivate var isTask: Bool {
        if case .task = self { true } else { false }
    }
}

/// Whether two references are the same object, for expectations that compare an `AnyObject` with a
/// concrete class.
private func same(_ left: AnyObject?, _ right: AnyObject?) -> Bool {
    left === right
}

/// A small deterministic generator (SplitMix64), so that a failing seed fails the same way again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
