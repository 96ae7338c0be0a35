import Testing

@testable import Assemblies

private final class Instance {}

private final class GraphAssembly: Assembly, @unchecked Sendable {}

/// Simulated threads and tasks read the singletons of a store in a seeded random order, driven from
/// one real thread through the non-blocking steps the library's waits are made of: a thread's look
/// at a slot (``SingletonStore/claimOrWait(_:scope:for:waitingFor:)``), a task's suspension
/// (``SingletonStore/suspend(_:on:resume:)``), a thread's look at the frames of other threads it
/// depends on (``WaitRegistry/lookAtFrames(of:first:)``), and registering, holding and publishing as
/// the resolver does them. A simulated thread sleeps until its parker has been woken; a task until
/// it has been resumed.
@Suite("Wait-for graph across slots")
struct WaitForGraphTests {
    /// Readers claim, build, register, hold, publish, wait for slots and for other readers' frames;
    /// bodies throw (their slots are given up); waiting tasks are cancelled. After every step: no
    /// waiter is lost (one whose slot has ended was woken); every cycle of waits has a reader on it
    /// that has been woken and will look again, so nothing deadlocks; a reader is told about a cycle
    /// of waits — it takes an instance, or a task stops with the chains — exactly when its wait
    /// would close one (a task waits on cycles that only blocked threads, which break them, are on);
    /// no singleton is built twice unless its first build was given up. At the end of each round
    /// every reader has finished.
    @Test(arguments: 1...100)
    func aSeededRandomInterleavingNeverLosesAWaiterNorMissesACycle(_ seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        var readers = Simulation.readers()
        var rounds = 0
        var (cyclesFound, abandoned, cancelled) = (0, 0, 0)
        // Rounds until some closed cycles of waits, so that each seed tests what it is for.
        while cyclesFound < 40 && rounds < 400 {
            let simulation = Simulation(readers: readers)
            simulation.run(using: &random)
            cyclesFound += simulation.cyclesFound
            abandoned += simulation.abandoned
            cancelled += simulation.cancellations
            rounds += 1
            // The program would have stopped: the next round starts from new threads and tasks.
            if simulation.stoppedByATask { readers = Simulation.readers() }
        }
        #expect(cyclesFound >= 40, "seed \(seed): \(rounds) rounds closed \(cyclesFound) cycles of waits")
        #expect(abandoned > 0 && cancelled > 0, "seed \(seed): no body threw, or no waiting task was cancelled")
    }
}

/// One round: a new store, five singletons, three threads and two tasks.
private final class Simulation {
    private static let members: [StaticString] = ["a", "b", "c", "d", "e"]
    private static let keys: [DefinitionKey] = members.enumerated().map { index, member in
        DefinitionKey(
            assembly: GraphAssembly.self,
            member: member,
            type: Instance.self,
            explicitKey: nil,
            file: #fileID,
            line: UInt(index),
            argumentBits: 0,
            arguments: nil
        )
    }

    private let store = SingletonStore()
    private let readers: [Reader]
    private var builds = Array(repeating: 0, count: Simulation.keys.count)
    private(set) var cyclesFound = 0
    private(set) var stoppedByATask = false
    private(set) var abandoned = 0
    private(set) var cancellations = 0

    init(readers: [Reader]) {
        self.readers = readers
        for reader in readers { reader.startRound() }
    }

    /// Three threads and two tasks. A task's identity is ended at once, so that the simulated tasks
    /// run below no one on this thread (see `ResolverThread.isBelow`).
    static func readers() -> [Reader] {
        let threads = (0..<3).map { _ in Reader(record: ResolverThread()) }
        let tasks = (0..<2).map { _ in
            let record = ResolverThread(task: TaskIdentity.current!)
            record.end()
            return Reader(record: record)
        }
        return threads + tasks
    }

    func run(using random: inout SeededRandom) {
        var steps = 0
        while !stoppedByATask {
            collectWakeUps()
            checkInvariants()
            if Int.random(in: 0..<20, using: &random) == 0,
                let task = readers.first(where: { $0.isTask && $0.isAsleep && $0.isCancellable }),
                case .suspended(let waiter, let slot, _) = task.phase
            {
                store.cancel(waiter, on: slot)  // as the task's cancellation handler does
                cancellations += 1
            }
            let awake = readers.filter { !$0.isAsleep && !$0.isDone }
            guard !awake.isEmpty, steps < 10_000 else { break }
            step(awake[Int.random(in: 0..<awake.count, using: &random)], using: &random)
            steps += 1
        }
        if !stoppedByATask {
            #expect(readers.allSatisfy { $0.isDone }, "readers never finished: a deadlock, or a waiter lost")
        }
        #expect(builds.allSatisfy { $0 <= 1 }, "a singleton was built twice")
    }

    // MARK: The model

    private func collectWakeUps() {
        for reader in readers where !reader.isTask && reader.parker.takeWakeUp() { reader.woken = true }
    }

    /// Who `reader` waits for, as the simulation sees it: the owner of the slot it is a waiter of
    /// (once woken by the slot, it waits for nothing until it looks again), or the threads of the
    /// frames it depends on.
    private func waitsFor(_ reader: Reader) -> [ResolverThread] {
        switch reader.phase {
        case .waitingForSlot(let slot), .suspended(_, let slot, _):
            guard slot.waiters.contains(where: { $0.identity === reader.record }), let owner = slot.owner else {
                return []
            }
            return [owner]
        case .waitingForFrames:
            return WaitRegistry.lock.withLock { reader.record.foreignDependencies.map(\.thread) }
        case .running, .done:
            return []
        }
    }

    /// Whether following waits from `start` reaches `target` — only through readers asleep, when
    /// `asleepOnly` (a reader awake will look again); not through a thread waiting for a slot, when
    /// `avoidingThreadsWaitingForSlots` (it can take an instance).
    private func reaches(
        _ target: Reader,
        from start: ResolverThread,
        asleepOnly: Bool = false,
        avoidingThreadsWaitingForSlots: Bool = false
    ) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var next = [start]
        while let current = next.popLast() {
            if current === target.record { return true }
            guard seen.insert(ObjectIdentifier(current)).inserted,
                let reader = readers.first(where: { $0.record === current }),
                !asleepOnly || reader.isAsleep
            else { continue }
            if avoidingThreadsWaitingForSlots, !reader.isTask, case .waitingForSlot = reader.phase { continue }
            if asleepOnly && waitsForASlotInFlux(reader) { continue }
            next += waitsFor(reader)
        }
        return false
    }

    /// Whether `reader` waits for a slot held back by a reader awake, which holds it for what it
    /// waits for now when it runs: the slot may change hands.
    private func waitsForASlotInFlux(_ reader: Reader) -> Bool {
        guard let slot = reader.slotWaitedFor, case .held(let held) = slot.state,
            let holder = readers.first(where: { $0.record === held.holder })
        else { return false }
        return !holder.isAsleep && !holder.isDone
    }

    private func checkInvariants() {
        for reader in readers where reader.isAsleep {
            switch reader.phase {
            case .waitingForSlot(let slot): #expect(slot.owner != nil, "a thread was lost: its slot ended")
            case .suspended(_, let slot, _): #expect(slot.owner != nil, "a task was lost: its slot ended")
            default: break
            }
            for owner in waitsFor(reader) where !waitsForASlotInFlux(reader) {
                #expect(!reaches(reader, from: owner, asleepOnly: true), "a cycle of waits that nobody will see")
            }
        }
    }

    // MARK: Steps

    private func step(_ reader: Reader, using random: inout SeededRandom) {
        switch reader.phase {
        case .done:
            return
        case .running:
            if reader.reads < 12 && (reader.frames.isEmpty || Int.random(in: 0..<10, using: &random) < 6) {
                read(reader, Int.random(in: 0..<Self.keys.count, using: &random))
            } else if !reader.frames.isEmpty {
                if Int.random(in: 0..<8, using: &random) == 0 { bodyThrew(reader) } else { finish(reader) }
            } else {
                reader.phase = .done
            }
        case .waitingForSlot:
            reader.woken = false
            read(reader, reader.reading!)
        case .suspended(_, _, let outcome):
            let isPinned = WaitRegistry.endWait(reader.record)  // as `SingletonStore.wait` does once resumed
            takeInbox(reader)
            switch outcome.value {
            case .changed?:
                break
            case .cancelled? where isPinned || !reader.taken.isEmpty || !reader.pending.isEmpty:
                // A thread relies on it waiting, or its instances were handed out: it waits on,
                // no longer cancellable (as `AsyncReading.read` does).
                reader.isCancellable = false
            case .cancelled?:
                // Its read throws: every body it was running throws in turn.
                while !reader.frames.isEmpty { bodyThrew(reader) }
                reader.phase = .running
                reader.reading = nil
                reader.isCancellable = true
                return
            default:
                Issue.record("a task left its wait with \(String(describing: outcome.value))")
                return
            }
            reader.phase = .running
            read(reader, reader.reading!)
        case .waitingForFrames(var first):
            reader.woken = false
            lookAtFrames: while true {
                switch WaitRegistry.lookAtFrames(of: reader.record, first: &first) {
                case .settled:
                    reader.phase = .running
                    takeInbox(reader)  // as `Resolver.awaitForeignDependencies` does before it settles again
                    settle(reader)
                    return
                case .changed(let now):
                    takeInbox(reader)
                    if !reader.taken.isEmpty {
                        // A frame of its own was taken: it goes on, and holds what it finished for
                        // that frame (as `Resolver.awaitForeignDependencies` does).
                        WaitRegistry.endWait(reader.record)
                        reader.phase = .running
                        settle(reader)
                        return
                    }
                    guard let now else { continue }
                    for item in reader.pending { store.hold(item.slot, object: item.object, until: now) }
                case .waiting:
                    reader.phase = .waitingForFrames(first: first)
                    break lookAtFrames
                }
            }
        }
        takeInbox(reader)
    }

    /// A read of `key`, or a look again after a wake-up.
    private func read(_ reader: Reader, _ key: Int) {
        collectWakeUps()
        reader.reading = key
        let frame = reader.nextFrame()
        let claimant = SingletonStore.Claimant(frame: frame, chain: BuildChain([StoredKey(Self.keys[key])], after: nil))
        let claim: SingletonStore.Claim
        if reader.isTask {
            claim = store.claimWithoutWaiting(Self.keys[key], scope: .singleton, for: claimant)
            if case .busy(let slot) = claim {
                suspend(reader, on: slot)
                return
            }
        } else {
            switch store.claimOrWait(Self.keys[key], scope: .singleton, for: claimant, waitingFor: &reader.waitingFor) {
            case .waiting:
                let slot = reader.waitingFor!
                #expect(!reaches(reader, from: slot.owner!), "a thread waits on a cycle of waits without being told")
                reader.phase = .waitingForSlot(slot)
                return
            case .done(let result):
                claim = result
                reader.waitingFor = nil
            }
        }
        reader.phase = .running
        reader.reading = nil
        reader.isCancellable = true
        reader.reads += 1
        switch claim {
        case .build(let slot, _):
            builds[key] += 1
            #expect(builds[key] == 1, "a singleton is built a second time before the first was given up")
            let object = Instance()
            reader.frames.append((slot, key, object, frame))
            store.register(object, in: slot)  // `*~>` at once: no cycle through initializers
        case .taken(_, let from):
            #expect(reaches(reader, from: from.thread), "a thread took an instance on no cycle of waits")
            cyclesFound += 1
        case .instance, .inFlight:
            break
        case .initializerCycle, .heldBelow, .busy, .weaklyKept:
            Issue.record("unexpected claim \(claim)")
        }
    }

    /// A task that finds the slot busy suspends: it is resumed when the slot changes. When waiting
    /// would close a cycle of waits, a thread blocked on that cycle is woken to break it, and the
    /// task waits; only on a cycle of tasks is the task resumed at once — the program stops with
    /// both chains.
    private func suspend(_ reader: Reader, on slot: SingletonSlot) {
        let owner = slot.owner
        let closesACycle = owner.map { reaches(reader, from: $0) } ?? false
        let threadOnEveryCycle = closesACycle && !reaches(reader, from: owner!, avoidingThreadsWaitingForSlots: true)
        let waiter = SingletonStore.TaskWaiter(thread: reader.record)
        let outcome = Reader.Outcome()
        reader.phase = .suspended(waiter, slot, outcome: outcome)
        store.suspend(waiter, on: slot) { outcome.value = $0 }
        switch outcome.value {
        case .cycle?:
            #expect(closesACycle && !threadOnEveryCycle, "a task was told about a cycle of waits threads could break")
            cyclesFound += 1
            stoppedByATask = true
        case nil:
            #expect(!closesACycle || threadOnEveryCycle, "a task waits on a cycle of waits that no thread will break")
            if closesACycle { cyclesFound += 1 }
        case .changed?, .cancelled?, .cancelledWhilePinned?:
            Issue.record("a task's wait ended before it began")
        }
    }

    /// The reader's innermost body has returned, and its instance settles (as `Resolver.leave`
    /// and `Resolver.handedOutFrameFinished` do). When it was the lowest frame of the reader that
    /// others took instances from, those that took them now depend on what the reader depends on.
    private func finish(_ reader: Reader) {
        let top = reader.frames.removeLast()
        reader.pending.append((top.slot, top.object))
        if let lowest = reader.taken.min(by: { $0.frame < $1.frame }), lowest == top.frame {
            let next = WaitRegistry.firstForeignDependency(of: reader.record)
            for frame in reader.taken { WaitRegistry.finished(frame, next: next) }
            reader.taken.removeAll()
        }
        settle(reader)
    }

    /// Publishes what the reader finished — unless a frame of its own that others took is still
    /// being wired: then held for it; or unless it depends on frames of other readers: then held
    /// for them while it waits (as `Resolver.settle` does).
    private func settle(_ reader: Reader) {
        if let lowest = reader.taken.min(by: { $0.frame < $1.frame }) {
            for item in reader.pending { store.hold(item.slot, object: item.object, until: lowest) }
            return
        }
        if let foreign = WaitRegistry.firstForeignDependency(of: reader.record) {
            for item in reader.pending { store.hold(item.slot, object: item.object, until: foreign) }
            if WaitRegistry.beginAwaitingFrames(of: reader.record) {
                for slot in reader.frames.map(\.slot) + reader.pending.map(\.slot) { store.wakeWaiters(of: slot) }
                reader.phase = .waitingForFrames(first: foreign)
                return
            }
        }
        for item in reader.pending { _ = store.publish(item.slot, object: item.object) }
        reader.pending.removeAll()
    }

    /// The reader's innermost body threw: its slot is given up, and the next read, by any reader,
    /// builds it again (as `Resolver.undo` does) — unless another reader took its instance, which
    /// stops the program: that body returns instead.
    private func bodyThrew(_ reader: Reader) {
        takeInbox(reader)
        guard let top = reader.frames.last, !reader.taken.contains(top.frame) else { return finish(reader) }
        reader.frames.removeLast()
        builds[top.key] -= 1
        store.abandon(top.slot)
        abandoned += 1
    }

    /// The frames of `reader` other readers took instances from (as `Resolver.takeInbox` does).
    private func takeInbox(_ reader: Reader) {
        for frame in WaitRegistry.takeInbox(of: reader.record) {
            if reader.frames.contains(where: { $0.frame == frame }) {
                if !reader.taken.contains(frame) { reader.taken.append(frame) }
            } else {
                WaitRegistry.finished(frame, next: nil)
            }
        }
    }
}

/// A simulated thread or task.
private final class Reader {
    let record: ResolverThread
    var isTask: Bool { record.isTask }
    var phase = Phase.running
    var frames: [(slot: SingletonSlot, key: Int, object: Instance, frame: FrameReference)] = []
    /// Instances whose bodies have returned, held until the frames of other readers this one
    /// depends on have finished.
    var pending: [(slot: SingletonSlot, object: Instance)] = []
    /// The key being read, read again after a wake-up.
    var reading: Int?
    /// A thread's registration on a slot, across its looks.
    var waitingFor: SingletonSlot?
    /// A thread's parker was woken since it last looked.
    var woken = false
    /// A task whose read may still be cancelled.
    var isCancellable = true
    /// Frames of this reader that other readers took instances from, until the lowest has finished.
    var taken: [FrameReference] = []
    var reads = 0
    private var serial: UInt64 = 0
    /// The number of the reader's one simulated resolver: unique in the process, as a real
    /// resolver's, so that its frames are never taken for frames of the other tests' resolvers.
    private let resolver = Resolver.nextNumber()

    enum Phase {
        case running
        case waitingForSlot(SingletonSlot)
        case suspended(SingletonStore.TaskWaiter, SingletonSlot, outcome: Outcome)
        case waitingForFrames(first: FrameReference?)
        case done
    }

    final class Outcome: @unchecked Sendable {
        var value: SingletonStore.WaitOutcome?
    }

    /// The parker a simulated thread sleeps on, made before it first waits, as a real thread's is.
    let parker: Parker

    init(record: ResolverThread) {
        self.record = record
        parker = WaitRegistry.parker(of: record)
    }

    func startRound() {
        phase = .running
        reads = 0
        woken = false
    }

    var isDone: Bool {
        if case .done = phase { true } else { false }
    }

    /// The slot it waits for, a thread or a task.
    var slotWaitedFor: SingletonSlot? {
        switch phase {
        case .waitingForSlot(let slot), .suspended(_, let slot, _): slot
        case .running, .waitingForFrames, .done: nil
        }
    }

    var isAsleep: Bool {
        switch phase {
        case .waitingForSlot, .waitingForFrames: !woken
        case .suspended(_, _, let outcome): outcome.value == nil
        case .running, .done: false
        }
    }

    /// The frame a read would push.
    func nextFrame() -> FrameReference {
        serial += 1
        return FrameReference(thread: record, resolver: resolver, frame: frames.count, serial: serial)
    }
}
