import Assemblies
import Testing

// Captive dependencies: a longer-lived instance that keeps a shorter-lived shared one, reported
// with the chain and the fix, in the family's mode.

private final class Audit {}
private final class Cache {
    let audit: Audit
    init(audit: Audit) { self.audit = audit }
}
private final class Handler {
    let audit: Audit
    let cache: Cache
    init(audit: Audit, cache: Cache) {
        self.audit = audit
        self.cache = cache
    }
}
private final class Formatter {
    let audit: Audit
    init(audit: Audit) { self.audit = audit }
}

extension Scope {
    fileprivate static let visit = Scope.resettable("visit")
    fileprivate static let day = Scope.resettable("day")
}

private final class CaptiveAssembly: Assembly, @unchecked Sendable {
    var audit: Audit { define(scope: .objectGraph) { Audit() } }
    var cache: Cache { define(scope: .singleton) { Cache(audit: self.audit) } }
    var handler: Handler { define { Handler(audit: self.audit, cache: self.cache) } }
    var freshAudit: Audit { define(scope: .prototype) { Audit() } }
    var cacheOfPrototype: Cache { define(scope: .singleton) { Cache(audit: self.freshAudit) } }
    var formatter: Formatter { define(scope: .prototype) { Formatter(audit: self.audit) } }
    var formatterCache: Formatter { define(scope: .singleton) { self.formatter } }
    var wrapper: Cache { define(scope: .objectGraph) { Cache(audit: self.audit) } }
    var cacheOfWrapper: Cache { define(scope: .singleton) { self.wrapper } }
    var weakCache: Cache { define(scope: .weakSingleton) { Cache(audit: self.audit) } }
    var visitAudit: Audit { define(scope: .visit) { Audit() } }
    var visitCache: Cache { define(scope: .visit) { Cache(audit: self.visitAudit) } }
    var dayCache: Cache { define(scope: .day) { Cache(audit: self.visitAudit) } }
    var singletonOfVisit: Cache { define(scope: .singleton) { Cache(audit: self.visitAudit) } }
    var intended: Cache { define(scope: .singleton) { Cache(audit: self.intentionallyCaptive(self.audit)) } }
    var intendedWrapper: Cache { define(scope: .singleton) { self.intentionallyCaptive(self.wrapper) } }
    var hookedCache: Formatter {
        define(scope: .singleton) { definition in
            definition.afterWiring { _ in _ = self.audit }
            return Formatter(audit: Audit())
        }
    }
}

/// Every captive dependency reported, in order.
private final class Captives: Sendable {
    private let found = Guarded<[CaptiveDependency]>([])
    var all: [CaptiveDependency] { found.withLock { $0 } }
    var chains: [String] { all.map { $0.chain.map(\.description).joined(separator: " → ") } }
    var mode: CaptiveDependencies { .report { captive in self.found.withLock { $0.append(captive) } } }
}

private func reporting() -> (CaptiveAssembly, Captives) {
    let app = CaptiveAssembly()
    let captives = Captives()
    app.checkCaptiveDependencies(captives.mode)
    return (app, captives)
}

@Suite struct CaptiveDependencyTests {
    @Test func aSingletonKeepingAnObjectGraphInstanceIsReported() {
        let (app, captives) = reporting()
        let first = app.handler
        let second = app.handler
        #expect(first.audit === first.cache.audit, "the first graph shares it")
        #expect(second.audit !== second.cache.audit, "what the check is about")
        #expect(captives.chains == ["CaptiveAssembly.cache → CaptiveAssembly.audit"])
        #expect(captives.all.first?.keeperScope == .singleton)
        #expect(captives.all.first?.keptScope == .objectGraph)
    }

    @Test func theMessageNamesTheChainAndTheFix() {
        let (app, captives) = reporting()
        _ = app.cache
        #expect(
            captives.all.first?.description == """
                captive dependency: CaptiveAssembly.cache (singleton) reads CaptiveAssembly.audit (objectGraph), \
                which is shared only within one object graph: every later graph builds its own audit, but a cache \
                that keeps it keeps the first one for as long as it lives. Chain: CaptiveAssembly.cache → \
                CaptiveAssembly.audit. To fix this, make CaptiveAssembly.audit a prototype (cache then gets its \
                own), give it a scope that lives as long as singleton, or give cache a provider of audit \
                (`self.provider`), which reads it each time it is called. If cache only uses it while it is \
                built, or is meant to keep it, read it with \
                intentionallyCaptive(self.audit).
                """
        )
    }

    @Test func aPrototypeIsNotCaptive() {
        let (app, captives) = reporting()
        _ = app.cacheOfPrototype
        #expect(captives.all.isEmpty)
    }

    @Test func whatAPrototypeReadsCountsAsReadByItsKeeper() {
        let (app, captives) = reporting()
        _ = app.formatterCache
        #expect(
            captives.chains == ["CaptiveAssembly.formatterCache → CaptiveAssembly.formatter → CaptiveAssembly.audit"]
        )
    }

    @Test func onlyTheNearestSharedInstanceIsReported() {
        let (app, captives) = reporting()
        _ = app.cacheOfWrapper
        #expect(captives.chains == ["CaptiveAssembly.cacheOfWrapper → CaptiveAssembly.wrapper"])
    }

    @Test func weakSingletonsAreCheckedToo() {
        let (app, captives) = reporting()
        _ = app.weakCache
        #expect(captives.chains == ["CaptiveAssembly.weakCache → CaptiveAssembly.audit"])
        #expect(captives.all.first?.keeperScope == .weakSingleton)
    }

    @Test func resettableScopes() {
        let (app, captives) = reporting()
        _ = app.visitCache
        #expect(captives.all.isEmpty, "one scope is reset as a whole")
        _ = app.dayCache
        _ = app.singletonOfVisit
        #expect(
            captives.chains == [
                "CaptiveAssembly.dayCache → CaptiveAssembly.visitAudit",
                "CaptiveAssembly.singletonOfVisit → CaptiveAssembly.visitAudit",
            ]
        )
        #expect(
            captives.all.last?.description.contains("which reset drops: after a reset of resettable(\"visit\")") == true
        )
    }

    @Test func anIntendedReadIsNotReported() {
        let (app, captives) = reporting()
        _ = app.intended
        #expect(captives.all.isEmpty)
    }

    @Test func onlyTheMarkedReadIsIntended() {
        let (app, captives) = reporting()
        _ = app.intendedWrapper
        #expect(captives.all.isEmpty, "the wrapper itself is intended; what it reads is its own")
    }

    @Test func aHookOfASingletonReadsForIt() {
        let (app, captives) = reporting()
        _ = app.hookedCache
        #expect(captives.chains == ["CaptiveAssembly.hookedCache → CaptiveAssembly.audit"])
    }

    @Test func aReportThatReadsTheFamilyReadsInAGraphOfItsOwn() {
        let app = CaptiveAssembly()
        let reads = Guarded<[String]>([])
        let audits = Guarded<[Audit]>([])
        app.checkCaptiveDependencies(
            .report { captive in
                // Read while the cache is being built: in a graph of its own, checked by no one.
                audits.withLock { $0.append(app.audit) }
                reads.withLock { $0.append("\(captive.chain.map(\.member))") }
            }
        )
        let cache = app.cache
        #expect(reads.withLock { $0 } == ["[\"cache\", \"audit\"]"])
        #expect(audits.withLock { $0 }.first !== cache.audit)
    }

    @Test func ignoreChecksNothing() {
        let app = CaptiveAssembly()
        app.checkCaptiveDependencies(.ignore)
        _ = app.handler
    }

    @Test func readsOfBuiltSingletonsAreNotCheckedAgain() {
        let (app, captives) = reporting()
        _ = app.cache
        _ = app.cache
        _ = app.handler
        #expect(captives.all.count == 1)
    }

    @Test func warnsOncePerChainByDefault() {
        let warnings = CapturedWarnings()
        warnings.capture {
            for _ in 0..<3 {
                let app = CaptiveAssembly()
                _ = app.handler
                _ = app.weakCache
            }
        }
        let captive = warnings.all.filter { $0.hasPrefix("Assemblies: warning: captive dependency") }
        #expect(captive.count == 6, "one per chain and family: \(warnings.all)")
    }

    @Test func stopStopsWithTheMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = CaptiveAssembly()
            app.checkCaptiveDependencies(.stop)
            _ = app.handler
        }
        #expect(
            stderr(of: result).contains(
                "Assemblies: captive dependency: CaptiveAssembly.cache (singleton) reads CaptiveAssembly.audit"
            )
        )
    }

    @Test func concurrentBuildsReportEachChainOnce() {
        let (app, captives) = reporting()
        onThreads(8) { _ in _ = app.handler }
        #expect(captives.chains == ["CaptiveAssembly.cache → CaptiveAssembly.audit"])
    }
}
