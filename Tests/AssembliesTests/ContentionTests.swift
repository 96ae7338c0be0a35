import Assemblies
import Foundation
import Testing

// Adversarial probes of the per-family, per-key singleton coordination. Every scenario that could
// hang runs under a time limit (`finishes(within:)`), so a deadlock fails instead of hanging.

extension Scope {
    fileprivate static let probeSession = Scope.resettable("probe-session")
}

private final class PNode: @unchecked Sendable {
    var peer: AnyObject?
    var other: AnyObject?
    var flag = false
    var onDeinit: (@Sendable () -> Void)?
    deinit { onDeinit?() }
}

private final class PDisposable: Disposable, @unchecked Sendable {
    let counter: Counter
    var peer: AnyObject?
    init(counter: Counter) { self.counter = counter }
    func dispose() { counter.tick("dispose") }
}

/// A box a test fills in after the assemblies exist.
private final class PRef<Value>: @unchecked Sendable {
    // @unchecked: set by the test before the reads that use it, or under `lock`.
    private let lock = NSLock()
    private var stored: Value?
    init(_ value: Value? = nil) { stored = value }
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A barrier for `count` parties: each call returns once all have called it (once per party).
private func makeBarrier(_ count: Int) -> @Sendable () -> Void {
    let group = DispatchGroup()
    for _ in 0..<count { group.enter() }
    return {
        group.leave()
        group.wait()
    }
}

// MARK: Assemblies

/// One family of a ring of families: `node` reads the next family's `node`.
private final class RingAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let next = PRef<RingAssembly>()
    let arrive = PRef<@Sendable () -> Void>()
    /// What `node` and `weakNode` read from the next family; its `node` by default.
    let target = PRef<@Sendable (RingAssembly) -> AnyObject>()
    func readNext() -> AnyObject {
        let next = next.value!
        return target.value.map { $0(next) } ?? next.node
    }

    var node: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            arrive.value?()
            node.peer = readNext()
            return node
        }
    }

    var weakNode: PNode {
        define(scope: .weakSingleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            arrive.value?()
            node.peer = readNext()
            return node
        }
    }

    var session: PDisposable {
        define(scope: .probeSession) { definition in
            counter.tick()
            let node = definition *~> PDisposable(counter: counter)
            arrive.value?()
            node.peer = next.value!.session
            return node
        }
    }
}

/// Three singletons of one family in a ring.
private final class TriangleAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let arrive = PRef<@Sendable () -> Void>()

    var a: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            arrive.value?()
            node.peer = self.b
            return node
        }
    }
    var b: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            arrive.value?()
            node.peer = self.c
            return node
        }
    }
    var c: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            arrive.value?()
            node.peer = self.a
            return node
        }
    }
}

/// `a` → `b` → `c` → `a`, all singletons; `a` and `c` register before reading on.
private final class StallAssembly: Assembly, @unchecked Sendable {
    let arrive = PRef<@Sendable () -> Void>()
    var a: PNode {
        define(scope: .singleton) { definition in
            let node = definition *~> PNode()
            arrive.value?()
            untilSomeoneWaits(for: self, "a")  // the other thread waits for `a` first
            node.peer = self.b
            return node
        }
    }
    var b: PNode {
        define(scope: .singleton) {
            let node = PNode()
            node.peer = self.c
            return node
        }
    }
    var c: PNode {
        define(scope: .singleton) { definition in
            let node = definition *~> PNode()
            arrive.value?()
            node.peer = self.a
            return node
        }
    }
}

/// Hooks, deinit and arguments that read the family.
private final class HookAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let inside = PRef<@Sendable () -> Void>()

    var logger: PNode {
        define(scope: .singleton) {
            counter.tick()
            return PNode()
        }
    }

    /// Its afterWiring hook reads the singleton itself (unregistered).
    var selfReadingHook: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            definition.afterWiring { node in node.other = self.selfReadingHook }
            return PNode()
        }
    }

    /// Its afterWiring hook reads the singleton itself (registered).
    var selfReadingHookRegistered: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            definition.afterWiring { node in node.other = self.selfReadingHookRegistered }
            return node
        }
    }

    /// Its afterWiring hook reads a definition that reads it back.
    var hookReadsDependent: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            definition.afterWiring { node in node.other = self.dependent }
            return PNode()
        }
    }
    var dependent: PNode {
        define {
            let node = PNode()
            node.peer = self.hookReadsDependent
            return node
        }
    }

    /// A singleton finished by an afterAllInjections step.
    var stepped: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            definition.afterAllInjections { node in node.flag = true }
            return PNode()
        }
    }

    /// A graph that reads `stepped`, then runs `inside` before it closes.
    var readsStepped: PNode {
        define {
            let node = PNode()
            node.peer = self.stepped
            self.inside.value?()
            return node
        }
    }

    /// A singleton with a temporary object-graph dependency whose deinit reads the family.
    var withTemporary: PNode {
        define(scope: .singleton) {
            counter.tick()
            let node = PNode()
            node.flag = self.intentionallyCaptive(self.temporary).flag  // read only while it is built
            return node
        }
    }
    var temporary: PNode {
        define {
            let node = PNode()
            node.onDeinit = { [unowned self] in
                _ = self.logger
                _ = self.withTemporary
            }
            return node
        }
    }

    func item(_ token: PToken) -> PNode {
        define(scope: .singleton, arguments: token) {
            counter.tick()
            return PNode()
        }
    }

    func sessionItem(_ token: PToken) -> PNode {
        define(scope: .probeSession, arguments: token) {
            counter.tick()
            return PNode()
        }
    }
}

/// A class argument whose deinit — or whose `==` — may read a family.
private final class PToken: Hashable, @unchecked Sendable {
    let id: Int
    let onDeinit: (@Sendable () -> Void)?
    init(_ id: Int, onDeinit: (@Sendable () -> Void)? = nil) {
        self.id = id
        self.onDeinit = onDeinit
    }
    deinit { onDeinit?() }
    static func == (left: PToken, right: PToken) -> Bool { left.id == right.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Three families that read each other on one thread: A → B → C → A.
private final class NestA: Assembly, @unchecked Sendable {
    let counter = Counter()
    let b = PRef<NestB>()
    var s: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            node.peer = b.value!.t
            return node
        }
    }
    var lookup: PNode {
        define(scope: .singleton) { definition in
            let node = definition *~> PNode()
            node.peer = b.value!.looksBack
            return node
        }
    }
}

private final class NestB: Assembly, @unchecked Sendable {
    let counter = Counter()
    let c = PRef<NestC>()
    let a = PRef<NestA>()
    var t: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            node.peer = c.value!.u
            return node
        }
    }
    /// Looks for objects of another family's graph, and of its own.
    var looksBack: PNode {
        define { definition in
            let node = definition *~> PNode()
            let fromA: PNode? = a.value!.existingObjectByMatchingType()
            let fromB: PNode? = self.existingObjectByMatchingType()
            node.other = fromA
            node.flag = fromB === node
            return node
        }
    }
}

private final class NestC: Assembly, @unchecked Sendable {
    let counter = Counter()
    let a = PRef<NestA>()
    var u: PNode {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> PNode()
            node.peer = a.value!.s
            return node
        }
    }
}

/// A weak singleton with a slow body.
private final class WeakAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let inside = PRef<@Sendable () -> Void>()
    private let hasWaited = PRef<Bool>(false)

    /// The gate of the first build: it returns once another thread waits for `weak`. A build after
    /// that (the instance was released meanwhile) has nobody to wait for it, and goes on.
    func untilTheOtherThreadWaits() {
        guard hasWaited.value != true else { return }
        untilSomeoneWaits(for: self, "weak")
        hasWaited.value = true
    }

    var weak: PNode {
        define(scope: .weakSingleton) {
            counter.tick()
            inside.value?()
            return PNode()
        }
    }
}

/// For overrides.
private final class OverriddenAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    var clock: PNode { define(scope: .singleton) { PNode() } }
    var logger: PNode { define(scope: .singleton) { PNode() } }
    var api: PNode {
        define(scope: .singleton) {
            counter.tick()
            let node = PNode()
            node.peer = self.logger
            usleep(2_000)
            return node
        }
    }
    /// A singleton whose deinit reads the family.
    var tracked: PNode {
        define(scope: .singleton) {
            let node = PNode()
            node.onDeinit = { [unowned self] in _ = self.logger }
            return node
        }
    }
}

/// Explicit key used with two scopes, in two graphs.
private final class MixedKeyAssembly: Assembly, @unchecked Sendable {
    var asSession: PNode { define(withKey: "mixed", scope: .probeSession) { PNode() } }
    var asSingleton: PNode { define(withKey: "mixed", scope: .singleton) { PNode() } }
}

/// Reset and dispose re-entering the family.
private final class ResetAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let other = PRef<ResetOtherAssembly>()
    var session: PDisposable {
        define(scope: .probeSession) {
            counter.tick()
            let item = PDisposable(counter: counter)
            item.peer = other.value?.resetting
            return item
        }
    }
    var plainSession: ReenteringDisposable {
        define(scope: .probeSession) {
            counter.tick()
            return ReenteringDisposable(counter: counter, assembly: self)
        }
    }
}

private final class ReenteringDisposable: Disposable, @unchecked Sendable {
    let counter: Counter
    unowned let assembly: ResetAssembly
    init(counter: Counter, assembly: ResetAssembly) {
        self.counter = counter
        self.assembly = assembly
    }
    func dispose() {
        counter.tick("dispose")
        // Re-enter: reset again and rebuild.
        assembly.reset(.probeSession)
        if counter["dispose"] < 3 { _ = assembly.plainSession }
    }
}

private final class ResetOtherAssembly: Assembly, @unchecked Sendable {
    let reset = PRef<ResetAssembly>()
    var resetting: PNode {
        define {
            reset.value!.reset(.probeSession)
            return PNode()
        }
    }
}

private func ring(_ count: Int) -> [RingAssembly] {
    let families = (0..<count).map { _ in RingAssembly() }
    for index in 0..<count { families[index].next.value = families[(index + 1) % count] }
    return families
}

@Suite struct ContentionTests {
    // MARK: Wait cycles between threads

    @Test func threeThreadsInAWaitCycleAcrossThreeFamilies() {
        for _ in 0..<30 {
            let families = ring(3)
            let arrive = makeBarrier(3)
            for family in families { family.arrive.value = arrive }
            let results = (0..<3).map { _ in PRef<PNode>() }
            #expect(finishes(within: 30) { onThreads(3) { results[$0].value = families[$0].node } })
            guard let r0 = results[0].value, let r1 = results[1].value, let r2 = results[2].value else { return }
            #expect(r0.peer === r1)
            #expect(r1.peer === r2)
            #expect(r2.peer === r0)
            for (index, family) in families.enumerated() {
                #expect(family.counter["node"] == 1)
                #expect(family.node === results[index].value)
            }
        }
    }

    @Test func threeThreadsInAWaitCycleInOneFamilyEachReadingOneMember() {
        for _ in 0..<30 {
            let family = TriangleAssembly()
            family.arrive.value = makeBarrier(3)
            let results = (0..<3).map { _ in PRef<PNode>() }
            #expect(
                finishes(within: 30) {
                    onThreads(3) { thread in
                        switch thread {
                        case 0: results[0].value = family.a
                        case 1: results[1].value = family.b
                        default: results[2].value = family.c
                        }
                    }
                }
            )
            guard let a = results[0].value, let b = results[1].value, let c = results[2].value else { return }
            #expect(a.peer === b)
            #expect(b.peer === c)
            #expect(c.peer === a)
            #expect(family.a === a && family.b === b && family.c === c)
            #expect(family.counter["a"] == 1 && family.counter["b"] == 1 && family.counter["c"] == 1)
        }
    }

    @Test func aCycleAcrossThreadsWhoseOtherSideIsAWeakSingleton() {
        for _ in 0..<30 {
            let families = ring(2)
            let arrive = makeBarrier(2)
            for family in families { family.arrive.value = arrive }
            // node(0) → weakNode(1) → node(0), started on two threads.
            families[0].target.value = { $0.weakNode }
            let strong = PRef<PNode>()
            let weak = PRef<PNode>()
            #expect(
                finishes(within: 30) {
                    onThreads(2) { thread in
                        if thread == 0 { strong.value = families[0].node } else { weak.value = families[1].weakNode }
                    }
                }
            )
            guard let s = strong.value, let w = weak.value else { return }
            #expect(s.peer === w)
            #expect(w.peer === s)
            #expect(families[1].counter["weakNode"] == 1)
            #expect(families[1].weakNode === w)
            #expect(families[0].node === s)
            #expect(families[0].counter["node"] == 1)
        }
    }

    @Test func aCycleOfWeakSingletonsAcrossThreads() {
        for _ in 0..<30 {
            let families = ring(2)
            let arrive = makeBarrier(2)
            for family in families {
                family.arrive.value = arrive
                family.target.value = { $0.weakNode }
            }
            let results = (0..<2).map { _ in PRef<PNode>() }
            #expect(finishes(within: 30) { onThreads(2) { results[$0].value = families[$0].weakNode } })
            guard let left = results[0].value, let right = results[1].value else { return }
            #expect(left.peer === right)
            #expect(right.peer === left)
            #expect(families[0].weakNode === left)
            #expect(families[0].counter["weakNode"] == 1)
            #expect(families[1].counter["weakNode"] == 1)
        }
    }

    /// Thread 1 builds `c` and waits for `a`; thread 0, building `a`, builds `b`, which reads `c`:
    /// it takes `c` (thread 1 waits for it), then blocks before publishing `b` until thread 1 has
    /// finished `c` — while thread 1 still waits for `a`, which thread 0 owns. Nothing wakes
    /// thread 1 to see the cycle until its warning delay runs out.
    @Test func aThreadThatTookAnInstanceDoesNotBlockAThreadWaitingForIt() {
        let family = StallAssembly()
        family.arrive.value = makeBarrier(2)
        let results = (0..<2).map { _ in PRef<PNode>() }
        let start = Date()
        #expect(finishes(within: 30) { onThreads(2) { results[$0].value = $0 == 0 ? family.a : family.c } })
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed < 0.6, "took \(elapsed) s: resolved only by the warning delay's timeout")
        family.arrive.value = nil
        #expect(results[0].value?.peer === family.b)
        #expect(family.b.peer === results[1].value)
        #expect(results[1].value?.peer === results[0].value)
    }

    @Test func resetOnAThirdThreadWhileACrossThreadCycleOfResettablesResolves() {
        for _ in 0..<30 {
            let families = ring(2)
            let arrive = makeBarrier(3)
            for family in families { family.arrive.value = arrive }
            let results = (0..<2).map { _ in PRef<PDisposable>() }
            #expect(
                finishes(within: 30) {
                    onThreads(3) { thread in
                        if thread < 2 {
                            results[thread].value = families[thread].session
                        } else {
                            arrive()
                            families[0].reset(.probeSession)
                            families[1].reset(.probeSession)
                        }
                    }
                }
            )
            for family in families { family.arrive.value = nil }
            guard let left = results[0].value, let right = results[1].value else { return }
            #expect(left.peer === right)
            #expect(right.peer === left)
            // Both were dropped (during or after their build): each disposed of exactly once.
            #expect(families[0].counter["dispose"] == 1)
            #expect(families[1].counter["dispose"] == 1)
            // The next read builds new ones.
            #expect(families[0].session !== left)
            #expect(families[0].counter["session"] == 2)
            #expect(families[0].counter["dispose"] == 1)
        }
    }

    /// Two families whose singletons read each other, started at the same instant on two threads:
    /// the check for a cycle and the registration of the wait are two steps, taken under two
    /// different store locks, so both threads can miss each other and wait until the warning delay.
    @Test func aCrossFamilyCycleIsResolvedWithoutWaitingForTheWarningDelay() {
        var slow = 0
        var worst = 0.0
        for _ in 0..<300 {
            let families = ring(2)
            let arrive = makeBarrier(2)
            for family in families { family.arrive.value = arrive }
            let start = Date()
            #expect(finishes(within: 30) { onThreads(2) { _ = families[$0].node } })
            let elapsed = Date().timeIntervalSince(start)
            worst = max(worst, elapsed)
            if elapsed > 0.5 { slow += 1 }
        }
        #expect(slow == 0, "\(slow) of 300 cycles waited for the warning delay (worst \(worst) s)")
    }

    // MARK: Nested spare resolvers

    @Test func aBodyReadingAFamilyThatReadsAThirdThatReadsBackTheFirst() {
        let a = NestA()
        let b = NestB()
        let c = NestC()
        a.b.value = b
        b.c.value = c
        b.a.value = a
        c.a.value = a
        let s = a.s
        #expect(((s.peer as? PNode)?.peer as? PNode)?.peer === s)
        #expect(a.counter["s"] == 1 && b.counter["t"] == 1 && c.counter["u"] == 1)
        #expect(c.u.peer === s)
        #expect(b.t === s.peer)
    }

    @Test func nestedSparesFromTwoThreadsAtOnce() {
        for _ in 0..<50 {
            let a = NestA()
            let b = NestB()
            let c = NestC()
            a.b.value = b
            b.c.value = c
            b.a.value = a
            c.a.value = a
            let fromA = PRef<PNode>()
            let fromC = PRef<PNode>()
            #expect(
                finishes(within: 30) {
                    onThreads(2) { thread in
                        if thread == 0 { fromA.value = a.s } else { fromC.value = c.u }
                    }
                }
            )
            #expect(a.counter["s"] == 1 && b.counter["t"] == 1 && c.counter["u"] == 1)
            #expect(fromC.value?.peer === fromA.value)
            #expect(c.u === fromC.value)
        }
    }

    @Test func existingObjectByMatchingTypeFromAnotherFamilysBody() {
        let a = NestA()
        let b = NestB()
        a.b.value = b
        b.a.value = a
        let lookup = a.lookup
        let looksBack = lookup.peer as? PNode
        // B's graph is its own: A's instance being wired isn't B's; B's own is.
        #expect(looksBack?.flag == true)
        _ = looksBack?.other
    }

    // MARK: Weak singletons

    @Test func aWeakSingletonRebuiltWhileAnotherThreadWaitsForIt() {
        for _ in 0..<100 {
            let family = WeakAssembly()
            // Whichever thread builds it waits, inside the body, until the other waits for it.
            family.inside.value = { [unowned family] in family.untilTheOtherThreadWaits() }
            let results = (0..<2).map { _ in PRef<PNode>() }
            #expect(
                finishes(within: 30) {
                    onThreads(2) { thread in results[thread].value = family.weak }
                }
            )
            #expect(results[0].value === results[1].value)
            #expect(family.counter["weak"] == 1)
        }
    }

    @Test func aWeakSingletonReleasedAndRebuiltUnderContention() {
        let family = WeakAssembly()
        let mismatches = Counter()
        #expect(
            finishes(within: 60) {
                onThreads(4) { _ in
                    for _ in 0..<500 {
                        let node = family.weak
                        if family.weak !== node { mismatches.tick("mismatch") }
                    }
                }
            }
        )
        #expect(mismatches["mismatch"] == 0)
    }

    // MARK: Deinit and arguments that read the family

    @Test func aTemporaryDependencyWhoseDeinitReadsTheFamily() {
        let family = HookAssembly()
        #expect(finishes(within: 10) { _ = family.withTemporary })
        #expect(family.counter["withTemporary"] == 1)
    }

    @Test func classArgumentsWhoseDeinitReadsTheFamily() {
        let family = HookAssembly()
        let reads = Counter()
        let same = PRef<Bool>()
        #expect(
            finishes(within: 10) {
                let onDeinit: @Sendable () -> Void = { [weak family] in
                    reads.tick("deinit")
                    _ = family?.logger
                }
                let first = family.item(PToken(1, onDeinit: onDeinit))
                let second = family.item(PToken(1, onDeinit: onDeinit))
                same.value = first === second
                _ = family.sessionItem(PToken(2, onDeinit: onDeinit))
                family.reset(.probeSession)
                _ = family.sessionItem(PToken(2, onDeinit: onDeinit))
            }
        )
        #expect(same.value == true)
        #expect(family.counter["item(_:)"] == 1)
        #expect(family.counter["sessionItem(_:)"] == 2)
    }

    // MARK: Hooks

    @Test func anAfterWiringHookOfARegisteredSingletonReadingItselfLeavesItPublished() {
        let family = HookAssembly()
        let first = PRef<PNode>()
        #expect(finishes(within: 10) { first.value = family.selfReadingHookRegistered })
        #expect(first.value?.other === first.value)
        // The thread that built it has ended; another thread reads it.
        let second = PRef<PNode>()
        #expect(
            finishes(within: 5) { second.value = family.selfReadingHookRegistered },
            "the singleton was left pending after its graph closed"
        )
        #expect(second.value === first.value)
    }

    @Test func anAfterWiringHookReadingADefinitionThatReadsTheSingletonBack() async {
        await #expect(processExitsWith: .success) {
            let family = HookAssembly()
            let node = family.hookReadsDependent
            precondition((node.other as? PNode)?.peer === node)
        }
    }

    @Test func anAfterWiringHookReadingItsOwnUnregisteredSingleton() async {
        await #expect(processExitsWith: .success) {
            let family = HookAssembly()
            let node = family.selfReadingHook
            precondition(node.other === node)
        }
    }

    @Test func anotherThreadSeesASingletonOnlyAfterItsAfterAllInjectionsSteps() {
        let family = HookAssembly()
        let seen = PRef<Bool>()
        family.inside.value = {
            let done = DispatchSemaphore(value: 0)
            let warnings = WarningOutput.handler
            Thread {
                withWarningHandler(warnings) { seen.value = family.stepped.flag }
                done.signal()
            }.start()
            // If the other thread can't see it yet, it waits: don't wait for it forever.
            _ = done.wait(timeout: .now() + 2)
        }
        let warnings = CapturedWarnings()
        warnings.capture {
            #expect(finishes(within: 20) { _ = family.readsStepped })
        }
        #expect(seen.value != false, "another thread got the singleton before its afterAllInjections step ran")
        // The other thread may wait long enough to say so; it says nothing else.
        #expect(
            warnings.all.allSatisfy { $0.contains("has waited") && $0.contains("HookAssembly.stepped") },
            "\(warnings.all)"
        )
    }

    // MARK: Overrides

    @Test func singletonsBuiltConcurrentlyUnderOverrides() async {
        let app = OverriddenAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.logger) { PNode() }
        await overrides.apply {
            let apis = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 {
                    group.addTask { ObjectIdentifier(app.api) }
                }
                var all: Set<ObjectIdentifier> = []
                for await id in group { all.insert(id) }
                return all
            }
            #expect(apis.count == 1)
            #expect(app.counter["api"] == 1)
        }
        #expect(app.api.peer !== nil)
        #expect(app.counter["api"] == 2)
    }

    /// Changing overrides while they apply drops the overrides' singletons — under a lock.
    @Test func anOverriddenSingletonWhoseDeinitReadsTheFamilyIsDroppedWithoutDeadlock() {
        let app = OverriddenAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.logger) { PNode() }
        #expect(
            finishes(within: 5) {
                overrides.apply(whenUnused: .ignore) {  // the clock's doubles: unused by design
                    _ = app.tracked  // built among the overrides' singletons, kept only there
                    overrides.replace(\.clock) { PNode() }
                    _ = app.logger  // a new store: the old one, and `tracked`, are released
                }
            },
            "releasing the overrides' old singletons ran a deinit under OverrideContext's lock"
        )
    }

    /// Replacing an override releases the previous one's unused double — under the table's lock.
    @Test func aReplacedDoubleWhoseDeinitReadsTheFamilyDoesNotDeadlock() {
        let app = OverriddenAssembly()
        let overrides = Overrides(of: app)
        #expect(
            finishes(within: 5) {
                overrides.apply(whenUnused: .ignore) {  // the doubles: unused by design
                    overrides.replace(\.clock) {
                        let node = PNode()
                        node.onDeinit = { _ = app.logger }
                        return node
                    }
                    overrides.replace(\.clock) { PNode() }
                }
            },
            "the first double's deinit ran under OverrideTable's lock"
        )
    }

    // MARK: Reset and dispose re-entering

    @Test func resetFromAnotherFamilysBodyInsideAResettableBody() {
        let app = ResetAssembly()
        let other = ResetOtherAssembly()
        app.other.value = other
        other.reset.value = app
        let first = PRef<PDisposable>()
        #expect(finishes(within: 10) { first.value = app.session })
        // It was dropped while being built: disposed of by the time the read returned.
        #expect(app.counter["dispose"] == 1)
        app.other.value = nil
        #expect(app.session !== first.value)
        #expect(app.counter["dispose"] == 1)
    }

    @Test func disposeThatResetsAndRebuildsTheScope() {
        let app = ResetAssembly()
        #expect(
            finishes(within: 10) {
                _ = app.plainSession
                app.reset(.probeSession)
            }
        )
        #expect(app.counter["dispose"] >= 1)
    }

    // MARK: Settings and misuse

    @Test func anInfiniteWarningDelayDoesNotCrashAWaitingThread() async {
        await #expect(processExitsWith: .success) {
            Assembly.singletonWaitWarningDelay = .infinity
            let family = WeakAssembly()
            family.inside.value = { [unowned family] in family.untilTheOtherThreadWaits() }
            onThreads(2) { _ in _ = family.weak }
        }
    }

    /// An explicit key read as a singleton after a resettable scope built it (in another graph):
    /// the singleton cache would keep an instance the scope's reset releases.
    @Test func anExplicitKeyUsedWithTwoScopesInTwoGraphsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = MixedKeyAssembly()
            _ = app.asSession
            _ = app.asSingleton
        }
        let message = stderr(of: result)
        #expect(message.contains("the key \"mixed\" is used with two scopes"))
        #expect(message.contains(".resettable(\"probe-session\")"))
    }

    // MARK: Stress

    @Test func stressCrossFamilyCyclesAndResets() {
        for _ in 0..<20 {
            let families = ring(2)
            #expect(
                finishes(within: 60) {
                    onThreads(4) { thread in
                        for round in 0..<20 {
                            switch (thread + round) % 4 {
                            case 0: _ = families[0].node
                            case 1: _ = families[1].session
                            case 2: families[round % 2].reset(.probeSession)
                            default: _ = families[0].session
                            }
                        }
                    }
                }
            )
            #expect(families[0].counter["node"] == 1)
            #expect(families[1].counter["node"] == 1)
            #expect(families[0].node.peer === families[1].node)
        }
    }
}
