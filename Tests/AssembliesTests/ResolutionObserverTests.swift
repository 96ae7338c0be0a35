import Assemblies
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// Resolution events: one per read, with the definition, scope, depth, parent, source and times.

private final class SeenLogger {}
private final class SeenAudit {}
private final class SeenBarista {
    let logger: SeenLogger
    init(logger: SeenLogger) { self.logger = logger }
}
private final class SeenCafe {
    let barista: SeenBarista
    let audit: SeenAudit
    init(barista: SeenBarista, audit: SeenAudit) {
        self.barista = barista
        self.audit = audit
    }
}

private final class SeenAssembly: Assembly, @unchecked Sendable {
    var logger: SeenLogger { define(scope: .singleton) { SeenLogger() } }
    var audit: SeenAudit { define(scope: .objectGraph) { SeenAudit() } }
    var barista: SeenBarista { define(scope: .prototype) { SeenBarista(logger: self.logger) } }
    var cafe: SeenCafe { define { SeenCafe(barista: self.barista, audit: self.audit) } }
    func label(_ number: Int) -> String { define(arguments: number) { "label \(number)" } }
    var weakLogger: SeenLogger { define(scope: .weakSingleton) { SeenLogger() } }
    var slowlyHooked: SeenAudit {
        define { definition in
            definition.afterWiring { _ in _ = self.slowBody }
            return SeenAudit()
        }
    }
    var slowBody: SeenLogger {
        define(scope: .prototype) {
            usleep(20_000)
            return SeenLogger()
        }
    }
    var other: SeenOtherAssembly { SeenOtherAssembly() }
    var crossing: SeenAudit { define { self.other.viaFirst } }
    var stopping: SeenAudit {
        define {
            self.stopObservingResolutions()
            return self.audit
        }
    }
    var stoppingAsync: SeenAudit {
        get async {
            await define { () async -> SeenAudit in
                self.stopObservingResolutions()
                return self.audit
            }
        }
    }
    var failing: SeenAudit { get throws(SeenError) { try define { () throws(SeenError) in throw SeenError() } } }
    func chain(_ depth: Int) -> SeenAudit {
        define(scope: .prototype, arguments: depth) { depth == 0 ? SeenAudit() : self.chain(depth - 1) }
    }
    func badge(_ holder: String, seat: Int?, row: Int?) -> String {
        define(arguments: holder, seat, row) { "\(holder) \(seat ?? 0) \(row ?? 0)" }
    }
}

private struct SeenError: Error {}

/// A family of its own, whose body reads back into the observed family.
private final class SeenOtherAssembly: Assembly, @unchecked Sendable {
    var viaFirst: SeenAudit { define { SeenAssembly().audit } }
}

private final class SeenPair {
    var partner: SeenPair?
}

private final class SeenCycleAssembly: Assembly, @unchecked Sendable {
    var first: SeenPair {
        define { definition in
            let pair = definition *~> SeenPair()
            pair.partner = self.second
            return pair
        }
    }
    var second: SeenPair {
        define { definition in
            let pair = definition *~> SeenPair()
            pair.partner = self.first
            return pair
        }
    }
}

private final class HeldConfig {}
private final class HeldParent {
    var child: HeldChild?
    var config: HeldConfig?
}
private final class HeldChild {
    let parent: HeldParent
    let config: HeldConfig
    init(parent: HeldParent, config: HeldConfig) {
        self.parent = parent
        self.config = config
    }
}

/// A singleton finished below an instance still being wired that was handed out: it is held back
/// until the parent is finished, and read again meanwhile.
private final class HeldBackAssembly: Assembly, @unchecked Sendable {
    var parent: HeldParent {
        define { definition in
            let parent = definition *~> HeldParent()
            parent.child = self.child
            parent.config = self.config
            return parent
        }
    }
    var child: HeldChild { define { HeldChild(parent: self.parent, config: self.config) } }
    var config: HeldConfig { define(scope: .singleton) { HeldConfig() } }
}

/// An observer that reads an object-graph definition of the family it observes, for every read.
private final class AuditReader: ResolutionObserver, @unchecked Sendable {
    let app: SeenAssembly
    let seen: Guarded<[SeenAudit]>
    init(app: SeenAssembly, seen: Guarded<[SeenAudit]>) {
        self.app = app
        self.seen = seen
    }
    func didResolve(_ resolution: Resolution) {
        let audit = app.audit
        seen.withLock { $0.append(audit) }
    }
}

/// An observer that reads the family it observes.
private final class Rereading: ResolutionObserver, @unchecked Sendable {
    let app: SeenAssembly
    let count = Guarded(0)
    init(app: SeenAssembly) { self.app = app }
    func didResolve(_ resolution: Resolution) {
        count.withLock { $0 += 1 }
        _ = app.audit
    }
}

/// Every resolution it receives, in order.
private final class Collected: ResolutionObserver {
    private let received = Guarded<[Resolution]>([])
    var all: [Resolution] { received.withLock { $0 } }
    func didResolve(_ resolution: Resolution) { received.withLock { $0.append(resolution) } }
}

@Suite struct ResolutionObserverTests {
    @Test func reportsEveryReadInnermostFirst() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        let cafe = app.cafe
        let reads = collected.all
        #expect(
            reads.map(\.definition.description) == [
                "SeenAssembly.logger", "SeenAssembly.barista", "SeenAssembly.audit", "SeenAssembly.cafe",
            ]
        )
        #expect(reads.map(\.depth) == [2, 1, 1, 0])
        #expect(reads.map { $0.parent?.member } == ["barista", "cafe", "cafe", nil])
        #expect(reads.map(\.scope) == [.singleton, .prototype, .objectGraph, .objectGraph])
        #expect(reads.allSatisfy { $0.source == .built })
        #expect(reads[3].instance == ObjectIdentifier(cafe))
        #expect(reads[3].type == "SeenCafe")
        #expect(reads[3].nanoseconds >= reads[3].ownNanoseconds)
        #expect(reads[3].nanoseconds >= reads[1].nanoseconds + reads[2].nanoseconds)
    }

    @Test func reportsWhereReusedInstancesComeFrom() {
        let app = SeenAssembly()
        _ = app.logger
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.logger
        _ = app.barista
        #expect(collected.all.map(\.source) == [.stored, .stored, .built])
        #expect(collected.all.map(\.nanoseconds)[0] == 0)
    }

    @Test func reportsArgumentsAsText() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.label(7)
        #expect(collected.all.map(\.arguments) == [["7"]])
        #expect(collected.all[0].description.hasPrefix("SeenAssembly.label(_:) (7) (objectGraph) built in "))
    }

    @Test func stopsReporting() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.audit
        app.stopObservingResolutions()
        _ = app.audit
        #expect(collected.all.count == 1)
    }

    @Test func logsATreePerTopLevelRead() {
        let app = SeenAssembly()
        let lines = Guarded<[String]>([])
        app.observeResolutions(with: ResolutionLog { text in lines.withLock { $0.append(text) } })
        _ = app.cafe
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1)
        let tree = logged[0].split(separator: "\n").map { String($0.prefix { $0 != "(" }) }
        #expect(
            tree.dropFirst() == [
                "  SeenAssembly.cafe ", "    SeenAssembly.barista ", "      SeenAssembly.logger ",
                "    SeenAssembly.audit ",
            ]
        )
    }

    @Test func aBackReferenceIsInFlight() {
        let app = SeenCycleAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.first
        #expect(collected.all.map(\.definition.member) == ["first", "second", "first"])
        #expect(collected.all.map(\.source) == [.inFlight, .built, .built])
    }

    @Test func aSingletonHeldBackAfterItsBodyReturnedIsReportedFromTheStore() {
        let app = HeldBackAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        let parent = app.parent
        #expect(parent.config === parent.child?.config)
        #expect(
            collected.all.map { "\($0.definition.member) \($0.source)" } == [
                "parent reused in flight", "config built", "child built", "config reused from the store",
                "parent built",
            ]
        )
        // One dashed edge: the child's back-reference to the parent, the one that closes a cycle.
        let other = HeldBackAssembly()
        let graph = other.recordGraph { _ = other.parent }
        #expect(graph.dot.components(separatedBy: "in flight").count == 2, "\(graph.dot)")
    }

    @Test func readsAnObserverMakesAreNotReported() {
        let app = SeenAssembly()
        let observer = Rereading(app: app)
        app.observeResolutions(with: observer)
        _ = app.cafe
        #expect(observer.count.withLock { $0 } == 4)
    }

    @Test func aReadFromAnotherFamilysBodyIsATopLevelReadOfItsOwn() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.crossing
        #expect(collected.all.map(\.definition.member) == ["crossing"], "a new SeenAssembly is another family")
    }

    @Test func aGraphReportsToTheObservationItOpenedWith() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.stopping
        _ = app.audit
        #expect(collected.all.map(\.definition.member) == ["audit", "stopping"])
    }

    @Test func anAsyncGraphReportsToTheObservationItOpenedWith() async {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = await app.stoppingAsync
        _ = app.audit
        #expect(collected.all.map(\.definition.member) == ["audit", "stoppingAsync"])
    }

    /// A provider that carries graph arguments opens its graph before the first read, so every read
    /// is made in the graph: once the family has let go of the observation, only the graph keeps
    /// what those reads report to (AddressSanitizer sees a use after free if it doesn't).
    @Test func aProvidersGraphReportsToTheObservationItOpenedWith() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.provider(\.stopping, carrying: Int.self)(1)
        #expect(collected.all.map(\.definition.member) == ["audit", "stopping"])
    }

    @Test func overridesAreReportedAsTheyAreBuilt() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        let overrides = Overrides(of: app)
        overrides.replace(\.logger, scope: .prototype) { SeenLogger() }
        overrides.apply {
            _ = app.barista
        }
        #expect(collected.all.map(\.definition.member) == ["logger", "barista"])
        #expect(collected.all.map(\.scope) == [.prototype, .prototype])
    }

    @Test func aReadWhoseBodyThrowsIsReportedAsFailed() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        #expect(throws: SeenError.self) { try app.failing }
        _ = app.audit
        #expect(collected.all.map(\.definition.member) == ["failing", "audit"])
        #expect(collected.all.map(\.source) == [.failed, .built])
        #expect(collected.all[0].instance == nil)
    }

    @Test func aFailedTopLevelReadEndsItsTreeInTheLog() {
        let app = SeenAssembly()
        let lines = Guarded<[String]>([])
        app.observeResolutions(with: ResolutionLog { text in lines.withLock { $0.append(text) } })
        _ = try? app.failing
        _ = app.audit
        let logged = lines.withLock { $0 }
        #expect(logged.count == 2)
        #expect(
            logged[0].hasSuffix(
                "SeenAssembly.failing (objectGraph) failed in " + logged[0].split(separator: " failed in ")[1]
            )
        )
        #expect(!logged[1].contains("failing"))
    }

    @Test func anObserverReadsInAGraphOfItsOwn() {
        let app = SeenAssembly()
        let seen = Guarded<[SeenAudit]>([])
        app.observeResolutions(with: AuditReader(app: app, seen: seen))
        let cafe = app.cafe
        let audits = seen.withLock { $0 }
        #expect(audits.count == 4)
        #expect(!audits.contains { $0 === cafe.audit }, "the observer's reads never join the graph being built")
    }

    @Test func aBodysTimeLeavesOutItsHooks() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.slowlyHooked
        let reads = collected.all
        #expect(reads.map(\.definition.member) == ["slowBody", "slowlyHooked"])
        #expect(reads[0].nanoseconds >= 20_000_000)
        #expect(reads[1].nanoseconds < 20_000_000, "the hook ran after the body returned")
        #expect(reads[0].parent?.member == "slowlyHooked", "but its reads are still the definition's")
    }

    @Test func aReusedWeakSingletonComesFromTheStore() {
        let app = SeenAssembly()
        let collected = Collected()
        let held = app.weakLogger
        app.observeResolutions(with: collected)
        #expect(app.weakLogger === held)
        #expect(collected.all.map(\.source) == [.stored])
    }

    @Test func eachThreadReportsItsOwnReads() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        onThreads(8) { _ in
            for _ in 0..<20 { _ = app.cafe }
        }
        let reads = collected.all
        #expect(reads.count == 8 * 20 * 4)
        #expect(reads.filter { $0.definition.member == "logger" && $0.source == .built }.count == 1)
        #expect(Set(reads.map(\.threadNumber)).count == 8)
        let byThread = Dictionary(grouping: reads, by: \.threadNumber)
        #expect(byThread.values.allSatisfy { $0.filter { $0.depth == 0 }.count == 20 })
    }

    @Test func aReadNamesItsThread() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        let done = DispatchSemaphore(value: 0)
        Thread {
            nameThisThread("seen-worker")
            _ = app.logger
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(collected.all.map(\.threadName) == ["seen-worker"])
    }

    @Test func aDeepGraphIsReportedLevelByLevel() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.chain(200)
        #expect(collected.all.map(\.depth) == Array((0...200).reversed()))
        #expect(collected.all.last?.arguments == ["200"])
    }

    @Test func argumentsAreReportedAsSwiftWritesThem() {
        let app = SeenAssembly()
        let collected = Collected()
        app.observeResolutions(with: collected)
        _ = app.badge("ada", seat: 7, row: nil)
        // An optional that holds a value is written as the value, as `AnyHashable` sees it.
        #expect(collected.all.map(\.arguments) == [["\"ada\"", "7", "nil"]])
    }
}

/// Names the calling thread. (Foundation's `Thread.name` may be set after the thread has begun,
/// and Glibc's module doesn't import `pthread_setname_np`.)
private func nameThisThread(_ name: String) {
    #if canImport(Darwin)
    pthread_setname_np(name)
    #else
    typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    // RTLD_DEFAULT, a null handle on glibc: the symbol as the program sees it.
    guard let symbol = dlsym(nil, "pthread_setname_np") else { return }
    _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), name)
    #endif
}
