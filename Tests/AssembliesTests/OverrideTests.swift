import Assemblies
import Foundation
import Testing

// Overrides: test doubles for definitions, applied per task.

private class OverrideNetwork {
    let name: String
    init(name: String) { self.name = name }
}

private final class OverrideFakeNetwork: OverrideNetwork {}

private final class OverrideClock {
    let label: String
    init(label: String) { self.label = label }
}

private final class OverrideStamp {}

private final class OverrideService {
    let network: OverrideNetwork
    let clock: OverrideClock
    init(network: OverrideNetwork, clock: OverrideClock) {
        self.network = network
        self.clock = clock
    }
}

private final class OverrideScreen {
    let service: OverrideService
    let network: OverrideNetwork
    let clock: OverrideClock
    init(service: OverrideService, network: OverrideNetwork, clock: OverrideClock) {
        self.service = service
        self.network = network
        self.clock = clock
    }
}

private final class OverrideStore {
    let kind: String
    init(kind: String) { self.kind = kind }
}

private final class OverrideArchive {
    let store: OverrideStore
    init(store: OverrideStore) { self.store = store }
}

private final class OverrideAlarm {
    let clock: OverrideClock
    init(clock: OverrideClock) { self.clock = clock }
}

private final class OverrideCoreAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var storage: OverrideStorageAssembly { collaborator() }

    var network: OverrideNetwork {
        define(scope: .singleton) {
            counter.tick()
            return OverrideNetwork(name: "production")
        }
    }

    var clock: OverrideClock {
        define {
            counter.tick()
            return OverrideClock(label: "real")
        }
    }

    var clocks: (OverrideClock, OverrideClock) { define { (self.clock, self.clock) } }

    var stamp: OverrideStamp {
        define(scope: .prototype) {
            counter.tick()
            return OverrideStamp()
        }
    }

    var backup: OverrideArchive { define { OverrideArchive(store: self.storage.store) } }
}

private final class OverrideAppAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var core: OverrideCoreAssembly { collaborator() }
    var storage: OverrideStorageAssembly { collaborator() }

    var service: OverrideService {
        define(scope: .singleton) {
            counter.tick()
            // The clock is kept on purpose: the tests check which clock a singleton gets.
            return OverrideService(network: self.core.network, clock: self.intentionallyCaptive(self.core.clock))
        }
    }

    var screen: OverrideScreen {
        define { OverrideScreen(service: self.service, network: self.core.network, clock: self.core.clock) }
    }

    var archive: OverrideArchive { define { OverrideArchive(store: self.storage.store) } }
}

private class OverrideStorageAssembly: Assembly, @unchecked Sendable {
    var store: OverrideStore { define(scope: .singleton) { OverrideStore(kind: "disk") } }
}

private final class OverrideMemoryStorageAssembly: OverrideStorageAssembly, @unchecked Sendable {
    override var store: OverrideStore { define(scope: .singleton) { OverrideStore(kind: "memory") } }
}

/// A root assembly meant to be subclassed, with a collaborator that reads the root's definition.
private class OverrideRootAssembly: Assembly, @unchecked Sendable {
    var feature: OverrideFeatureAssembly { collaborator() }
    var clock: OverrideClock { define(scope: .singleton) { OverrideClock(label: "real") } }
}

private final class OverrideFeatureAssembly: Assembly, @unchecked Sendable {
    var root: OverrideRootAssembly { collaborator() }
    var alarm: OverrideAlarm { define { OverrideAlarm(clock: self.root.clock) } }
}

private final class OverrideStubRootAssembly: OverrideRootAssembly, @unchecked Sendable {
    override var clock: OverrideClock { define(scope: .singleton) { OverrideClock(label: "stub") } }
}

/// One family shared by tests that run in parallel, each applying doubles of its own.
private let overrideSharedApp = OverrideAppAssembly()

/// Applies doubles labelled `label` to the shared family and reads it many times, suspending often.
/// Returns how many reads saw something other than this task's doubles.
private func foreignReads(applying label: String, reads: Int) async -> Int {
    let overrides = Overrides(of: overrideSharedApp)
    overrides.replace(\.core.clock) { OverrideClock(label: label) }
    overrides.replace(\.core.network) { OverrideNetwork(name: label) }
    var foreign = 0
    await overrides.apply {
        for read in 0..<reads {
            let screen = overrideSharedApp.screen
            if screen.clock.label != label || screen.network.name != label || screen.service.network.name != label {
                foreign += 1
            }
            if overrideSharedApp.core.network.name != label { foreign += 1 }
            if read.isMultiple(of: 3) { await Task.yield() }
            if read.isMultiple(of: 250) { try? await Task.sleep(nanoseconds: 1_000_000) }
        }
    }
    return foreign
}

/// Reads the shared family without overrides; returns how many reads saw a double.
private func doubledReads(reads: Int) async -> Int {
    var doubled = 0
    for read in 0..<reads {
        let screen = overrideSharedApp.screen
        if screen.clock.label != "real" || screen.network.name != "production"
            || screen.service.network.name != "production"
        {
            doubled += 1
        }
        if read.isMultiple(of: 3) { await Task.yield() }
    }
    return doubled
}

/// A singleton whose deinit reads its family again.
private final class OverrideRereader {
    let assembly: OverrideRereadingAssembly
    init(assembly: OverrideRereadingAssembly) { self.assembly = assembly }
    deinit { _ = assembly.clock }
}

private final class OverrideRereadingAssembly: Assembly, @unchecked Sendable {
    var rereader: OverrideRereader { define(scope: .singleton) { OverrideRereader(assembly: self) } }
    var clock: OverrideClock { define { OverrideClock(label: "real") } }
}

/// Definitions named through a subscript: key paths with arguments.
private final class OverrideOrdersAssembly: Assembly, @unchecked Sendable {
    subscript(name: String) -> OverrideStore {
        define(arguments: name) { OverrideStore(kind: name) }
    }

    var both: (OverrideStore, OverrideStore) { define { (self["latte"], self["mocha"]) } }
}

@Suite struct OverrideTests {
    // MARK: What sees the double

    @Test func theDoubleIsSeenByTheDefinitionAndEveryDependent() throws {
        let app = OverrideAppAssembly()
        let productionService = app.service
        let productionNetwork = app.core.network
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) { OverrideFakeNetwork(name: "fake") }

        try overrides.apply {
            let screen = app.screen
            let fake = try #require(screen.network as? OverrideFakeNetwork)
            #expect(fake.name == "fake")
            #expect(screen.service.network === fake, "a singleton that depends on the double is built on it")
            #expect(app.core.network === fake)
            #expect(app.service === screen.service)
            #expect(app.service !== productionService)
        }

        #expect(app.service === productionService, "production singletons are untouched")
        #expect(app.core.network === productionNetwork)
        #expect(!(app.screen.network is OverrideFakeNetwork))
        #expect(app.screen.service.network === productionNetwork)
        #expect(app.core.counter["network"] == 1)
    }

    @Test func anOverrideTakesEffectAfterTheOriginalSingletonWasCached() {
        let app = OverrideAppAssembly()
        let production = app.core.network
        #expect(production.name == "production")
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) { OverrideNetwork(name: "fake") }
        overrides.apply {
            #expect(app.core.network.name == "fake")
            #expect(app.core.network !== production)
            #expect(app.service.network.name == "fake")
        }
        #expect(app.core.network === production)
    }

    @Test func overridesOfACollaboratorReachTheWholeFamily() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app.core)
        overrides.replace(\.clock) { OverrideClock(label: "fake") }
        overrides.apply {
            let screen = app.screen
            #expect(screen.clock.label == "fake")
            #expect(screen.service.clock === screen.clock)
        }
        #expect(app.screen.clock.label == "real")
    }

    @Test func asyncApplyReachesChildTasks() async {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.clock) { OverrideClock(label: "fake") }
        let labels = await overrides.apply {
            await Task.yield()
            let here = app.core.clock.label
            let children = await withTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { app.screen.clock.label }
                }
                var labels: [String] = []
                for await label in group { labels.append(label) }
                return labels
            }
            return [here] + children
        }
        #expect(labels == Array(repeating: "fake", count: 5))
        #expect(app.core.clock.label == "real")
    }

    // MARK: Scopes

    @Test func aSingletonDoubleIsOneInstanceWhileTheOverridesApply() {
        let app = OverrideAppAssembly()
        let made = Counter()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) {
            made.tick("network")
            return OverrideNetwork(name: "fake")
        }
        let inside = overrides.apply {
            let first = app.core.network
            for _ in 0..<10 { #expect(app.core.network === first) }
            #expect(app.screen.network === first)
            return first
        }
        #expect(made["network"] == 1)
        #expect(app.core.network !== inside)
        #expect(app.core.network.name == "production")
    }

    @Test func aPrototypeDoubleIsNewOnEveryRead() {
        let app = OverrideAppAssembly()
        let made = Counter()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.stamp) {
            made.tick("stamp")
            return OverrideStamp()
        }
        let stamps = overrides.apply { (0..<5).map { _ in app.core.stamp } }
        #expect(Set(stamps.map(ObjectIdentifier.init)).count == 5)
        #expect(made["stamp"] == 5, "the factory runs once per double handed out")
        #expect(app.core.counter["stamp"] == 0, "the original definition never ran")
    }

    @Test func anObjectGraphDoubleIsSharedWithinAGraph() {
        let app = OverrideAppAssembly()
        let made = Counter()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.clock) {
            made.tick("clock")
            return OverrideClock(label: "fake")
        }
        overrides.apply {
            let (first, second) = app.core.clocks
            #expect(first === second)
            #expect(first.label == "fake")
            let (third, _) = app.core.clocks
            #expect(third !== first, "the next graph gets a new double")
            let screen = app.screen
            #expect(screen.clock !== first)
            #expect(screen.clock.label == "fake")
        }
        #expect(made["clock"] == 3, "one double per graph")
        #expect(app.core.counter["clock"] == 0)
    }

    @Test func anotherScopeCanBeGiven() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network, scope: .prototype) { OverrideNetwork(name: "fake") }
        overrides.replace(\.core.clock, scope: .singleton) { OverrideClock(label: "fake") }
        overrides.apply {
            #expect(app.core.network !== app.core.network)
            #expect(app.core.network.name == "fake")
            let first = app.core.clock
            #expect(app.core.clock === first)
            #expect(app.screen.clock === first)
            #expect(first.label == "fake")
        }
        #expect(app.core.network === app.core.network)
        #expect(app.core.clock !== app.core.clock)
    }

    // MARK: Changing and nesting

    @Test func removeTakesEffectAtOnceInsideApply() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.clock) { OverrideClock(label: "fake") }
        overrides.apply {
            #expect(app.core.clock.label == "fake")
            overrides.remove(\.core.clock)
            #expect(app.core.clock.label == "real")
            #expect(app.screen.clock.label == "real")
        }
        #expect(app.core.clock.label == "real")
    }

    @Test func removingASingletonDoubleTakesEffectAtOnceInsideApply() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) { OverrideNetwork(name: "fake") }
        overrides.apply {
            #expect(app.core.network.name == "fake")
            overrides.remove(\.core.network)
            #expect(app.core.network.name == "production")
        }
    }

    @Test func replaceTakesEffectAtOnceInsideApply() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.apply {
            #expect(app.core.clock.label == "real")
            overrides.replace(\.core.clock) { OverrideClock(label: "fake") }
            #expect(app.core.clock.label == "fake")
            overrides.replace(\.core.clock) { OverrideClock(label: "second") }
            #expect(app.core.clock.label == "second")
        }
        #expect(app.core.clock.label == "real")
    }

    @Test func replacingASingletonAlreadyReadInsideApplyTakesEffectAtOnce() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.apply {
            #expect(app.core.network.name == "production")
            overrides.replace(\.core.network) { OverrideNetwork(name: "fake") }
            #expect(app.core.network.name == "fake")
        }
        #expect(app.core.network.name == "production")
    }

    @Test func anInnerApplyLayersOverTheOuterOne() {
        let app = OverrideAppAssembly()
        let outer = Overrides(of: app)
        outer.replace(\.core.clock) { OverrideClock(label: "outer") }
        outer.replace(\.core.network) { OverrideNetwork(name: "outer") }
        let inner = Overrides(of: app)
        inner.replace(\.core.clock) { OverrideClock(label: "inner") }

        outer.apply {
            #expect(app.screen.clock.label == "outer")
            inner.apply {
                let screen = app.screen
                #expect(screen.clock.label == "inner")
                #expect(screen.network.name == "outer", "what the inner overrides don't replace stays the outer double")
                #expect(screen.service.clock.label == "inner")
            }
            let screen = app.screen
            #expect(screen.clock.label == "outer")
            #expect(screen.service.clock.label == "outer")
            #expect(screen.network.name == "outer")
        }
        #expect(app.screen.clock.label == "real")
        #expect(app.screen.network.name == "production")
    }

    // MARK: Unused overrides

    @Test func unusedListsTheOverridesNoReadUsed() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) { OverrideNetwork(name: "fake") }
        overrides.replace(\.core.clock) { OverrideClock(label: "fake") }
        #expect(overrides.unused.sorted() == ["OverrideCoreAssembly.clock", "OverrideCoreAssembly.network"])
        let warnings = CapturedWarnings()
        warnings.capture {
            overrides.apply { _ = app.core.network }
        }
        #expect(overrides.unused == ["OverrideCoreAssembly.clock"])
        #expect(
            warnings.all == [
                "Assemblies: warning: the override of OverrideCoreAssembly.clock was never used. Check that it "
                    + "names a definition (or collaborator type) your code reads, or remove it."
            ]
        )
        overrides.apply { _ = app.screen }
        #expect(overrides.unused.isEmpty)
    }

    // MARK: Collaborators and subclasses

    @Test func aCollaboratorCanBeReplacedByASubclass() {
        let app = OverrideAppAssembly()
        #expect(app.archive.store.kind == "disk")
        let overrides = Overrides(of: app)
        overrides.replace(OverrideStorageAssembly.self, with: OverrideMemoryStorageAssembly.self)
        #expect(overrides.unused == ["OverrideMemoryStorageAssembly"])
        overrides.apply {
            #expect(app.storage is OverrideMemoryStorageAssembly)
            #expect(app.core.storage === app.storage)
            let archive = app.archive
            #expect(archive.store.kind == "memory")
            #expect(
                app.core.backup.store === archive.store,
                "every collaborator that reaches the type sees the subclass"
            )
        }
        #expect(overrides.unused.isEmpty)
        #expect(!(app.storage is OverrideMemoryStorageAssembly))
        #expect(app.archive.store.kind == "disk")
        #expect(app.core.backup.store.kind == "disk")
    }

    @Test func removingACollaboratorSubstitutionRestoresTheOriginal() {
        let app = OverrideAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(OverrideStorageAssembly.self, with: OverrideMemoryStorageAssembly.self)
        overrides.apply {
            #expect(app.archive.store.kind == "memory")
            overrides.remove(OverrideStorageAssembly.self)
            #expect(!(app.storage is OverrideMemoryStorageAssembly))
            #expect(app.archive.store.kind == "disk")
        }
    }

    @Test func subclassingTheRootAssemblyStillOverrides() {
        let stub = OverrideStubRootAssembly()
        #expect(stub.feature.root === stub)
        let alarm = stub.feature.alarm
        #expect(alarm.clock.label == "stub")
        #expect(alarm.clock === stub.clock)
        let real = OverrideRootAssembly()
        #expect(real.feature.alarm.clock.label == "real")
    }

    // MARK: Isolation between tasks

    @Test func parallelTestsSeeOnlyTheirOwnDoublesA() async {
        #expect(await foreignReads(applying: "A", reads: 2_000) == 0)
        #expect(overrideSharedApp.core.clock.label == "real")
    }

    @Test func parallelTestsSeeOnlyTheirOwnDoublesB() async {
        #expect(await foreignReads(applying: "B", reads: 2_000) == 0)
        #expect(overrideSharedApp.core.clock.label == "real")
    }

    @Test func parallelTestsSeeOnlyTheirOwnDoublesC() async {
        #expect(await foreignReads(applying: "C", reads: 2_000) == 0)
        #expect(overrideSharedApp.core.network.name == "production")
    }

    @Test func parallelTestsSeeOnlyTheirOwnDoublesD() async {
        #expect(await foreignReads(applying: "D", reads: 2_000) == 0)
        #expect(overrideSharedApp.core.network.name == "production")
    }

    @Test func anotherTasksOverridesLeaveAThreadsSingletonsAndCachesAlone() async {
        let app = OverrideAppAssembly()
        let production = ObjectIdentifier(app.core.network)
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) { OverrideNetwork(name: "fake") }
        let inside = Gate()
        let threadsRead = Gate()
        async let finished = completes {
            await overrides.apply {
                #expect(app.core.network.name == "fake")
                inside.open()
                await threadsRead.wait()
                // The threads filled their caches with the family's own singleton meanwhile.
                #expect(app.core.network.name == "fake")
                #expect(app.service.network.name == "fake")
            }
        }
        async let threads = completes {
            await inside.wait()
            // New threads: their first read fills their caches while the other task's overrides apply.
            onThreads(2) { _ in
                for _ in 0..<3 {
                    #expect(ObjectIdentifier(app.core.network) == production)
                    #expect(ObjectIdentifier(app.service.network) == production)
                }
            }
            threadsRead.open()
        }
        let (overriding, reading) = await (finished, threads)
        #expect(overriding && reading)
        #expect(app.core.counter["network"] == 1, "the production singleton was built once")
        #expect(ObjectIdentifier(app.core.network) == production)
    }

    /// A thread outside any task sees an override only while a synchronous `apply` is open on it:
    /// its reads skip the task-local lookup otherwise, and must not skip it then.
    @Test func aSynchronousApplyOnAThreadOutsideAnyTaskReachesOnlyThatThread() {
        struct Failed: Error {}
        let app = OverrideAppAssembly()
        let production = ObjectIdentifier(app.core.network)
        let overrides = Overrides(of: app)
        overrides.replace(\.core.network) { OverrideNetwork(name: "fake") }
        let applying = DispatchSemaphore(value: 0)
        let othersRead = DispatchSemaphore(value: 0)
        let opened: @Sendable (DispatchSemaphore) -> Bool = { $0.wait(timeout: .now() + 20) == .success }
        onThreads(2) { thread in
            if thread == 0 {
                overrides.apply {
                    #expect(app.core.network.name == "fake")
                    overrides.apply(whenUnused: .ignore) {
                        #expect(app.service.network.name == "fake")
                    }
                    #expect(app.service.network.name == "fake", "still inside the outer apply")
                    // A task created here inherits the overrides the thread bound, and looks them up.
                    let taskRead = DispatchSemaphore(value: 0)
                    let seenByTheTask = Guarded(false)
                    Task {
                        seenByTheTask.withLock { $0 = app.core.network.name == "fake" }
                        taskRead.signal()
                    }
                    #expect(opened(taskRead))
                    #expect(seenByTheTask.withLock { $0 }, "a task created in the apply sees its overrides")
                    applying.signal()
                    #expect(opened(othersRead))
                    #expect(app.core.network.name == "fake")
                }
                #expect(ObjectIdentifier(app.core.network) == production, "the apply has returned")
                #expect(throws: Failed.self) {
                    try overrides.apply {
                        #expect(app.core.network.name == "fake")
                        throw Failed()
                    }
                }
                #expect(ObjectIdentifier(app.core.network) == production, "the apply has thrown")
            } else {
                #expect(opened(applying))
                #expect(ObjectIdentifier(app.core.network) == production)
                #expect(ObjectIdentifier(app.service.network) == production)
                othersRead.signal()
            }
        }
        #expect(app.core.counter["network"] == 1, "the production singleton was built once")
    }

    @Test func parallelTestsWithoutOverridesSeeTheOriginals() async {
        #expect(await doubledReads(reads: 2_000) == 0)
    }

    @Test func childTasksEachSeeOnlyTheirOwnOverrides() async {
        let (finished, wrong) = await withTaskGroup(of: Int.self) { group in
            for child in 0..<16 {
                group.addTask {
                    if child.isMultiple(of: 4) {
                        return await doubledReads(reads: 500)
                    }
                    return await foreignReads(applying: "child \(child)", reads: 500)
                }
            }
            var finished = 0
            var wrong = 0
            for await count in group {
                finished += 1
                wrong += count
            }
            return (finished, wrong)
        }
        #expect(finished == 16)
        #expect(wrong == 0)
        #expect(overrideSharedApp.screen.clock.label == "real")
    }

    @Test func anOverrideNamedThroughASubscriptReplacesTheInstanceForThoseArguments() {
        let orders = OverrideOrdersAssembly()
        let overrides = Overrides(of: orders)
        overrides.replace(\.["latte"]) { OverrideStore(kind: "stub") }
        // Arguments built after the override was added are equal, not identical, to the key path's.
        let latte = String(["l", "a", "t", "t", "e"])
        overrides.apply {
            #expect(orders[latte].kind == "stub")
            #expect(orders["mocha"].kind == "mocha")
            #expect(orders.both.0.kind == "stub")
            #expect(orders.both.1.kind == "mocha")
        }
        #expect(overrides.unused.isEmpty)
        #expect(orders["latte"].kind == "latte")
    }

    @Test func aChangeInsideApplyReleasesSingletonsWhoseDeinitReadsTheFamily() {
        let assembly = OverrideRereadingAssembly()
        let overrides = Overrides(of: assembly)
        overrides.replace(\.clock) { OverrideClock(label: "stub") }
        nonisolated(unsafe) var label = ""
        let finished = finishes {
            overrides.apply {
                _ = assembly.rereader
                // Drops the overrides' singletons: the rereader's deinit reads the family.
                overrides.replace(\.clock) { OverrideClock(label: "other stub") }
                label = assembly.clock.label
            }
        }
        #expect(finished)
        #expect(label == "other stub")
    }
}
