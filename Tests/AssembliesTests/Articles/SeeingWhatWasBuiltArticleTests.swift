import Assemblies
import Testing

// The code blocks of the article *Seeing What Was Built*, each verbatim (`.ci/run docs` checks
// them), with what they need around them and tests of what the article says they print.

@Suite("Seeing What Was Built")
struct SeeingWhatWasBuiltArticle {
    final class Roastery {}
    final class Audit {}

    final class Barista {
        let roastery: Roastery
        init(roastery: Roastery) { self.roastery = roastery }
    }

    final class Cafe {
        let barista: Barista
        let audit: Audit
        init(barista: Barista, audit: Audit) {
            self.barista = barista
            self.audit = audit
        }
    }

    final class Cache {
        let audit: Audit
        init(audit: Audit) { self.audit = audit }
    }

    final class CafeAssembly: Assembly, @unchecked Sendable {
        var cafe: Cafe { define { Cafe(barista: self.barista, audit: self.audit) } }
        var barista: Barista { define { Barista(roastery: self.roastery) } }
        var roastery: Roastery { define(scope: .singleton) { Roastery() } }
        var audit: Audit { define { Audit() } }

        override func buildEagerSingletons() {
            _ = roastery
        }
    }

    final class CachingAssembly: Assembly, @unchecked Sendable {
        var audit: Audit { define { Audit() } }

        var cache: Cache {
            define(scope: .singleton) { Cache(audit: self.audit) }  // keeps the first graph's audit
        }

        var reportCache: Cache {
            // One audit for the cache's whole life is what it is meant to have.
            define(scope: .singleton) { Cache(audit: self.intentionallyCaptive(self.audit)) }
        }
    }

    struct SlowReads: ResolutionObserver {
        func didResolve(_ resolution: Resolution) {
            if resolution.ownNanoseconds > 10_000_000 {
                print("slow: \(resolution)")
            }
        }
    }

    static func watchEveryRead() {
        let app = CafeAssembly()
        app.observeResolutions(with: ResolutionLog())
        _ = app.cafe
    }

    static func drawTheGraph(of app: CafeAssembly) {
        let graph = app.recordGraph { _ = app.cafe }
        print(graph.mermaid)  // or graph.dot, for Graphviz
    }

    static func reportTheLaunch(of app: CafeAssembly) {
        let report = app.buildReport { app.activate() }
        print(report)
    }

    static func stopAtEachCaptive(_ app: CachingAssembly) {
        app.checkCaptiveDependencies(.stop)
    }

    static func recordEachCaptive(_ app: CachingAssembly) {
        app.checkCaptiveDependencies(.report { captive in Issue.record("\(captive)") })
    }

    @Test func theLogPrintsTheTreeOfEachTopLevelRead() {
        let app = CafeAssembly()
        let lines = Guarded<[String]>([])
        app.observeResolutions(with: ResolutionLog { text in lines.withLock { $0.append(text) } })
        _ = app.cafe
        let tree = lines.withLock { $0 }[0].split(separator: "\n").map { String($0.split(separator: " in ")[0]) }
        #expect(
            tree.dropFirst() == [
                "  CafeAssembly.cafe (objectGraph) built",
                "    CafeAssembly.barista (objectGraph) built",
                "      CafeAssembly.roastery (singleton) built",
                "    CafeAssembly.audit (objectGraph) built",
            ]
        )
    }

    @Test func theGraphHasEachInstanceOnce() {
        let app = CafeAssembly()
        let graph = app.recordGraph { _ = app.cafe }
        #expect(graph.nodes.map(\.definition.member) == ["cafe", "barista", "roastery", "audit"])
        #expect(graph.edges.map { [$0.from, $0.to] } == [[1, 2], [2, 3], [1, 4]])
    }

    @Test func theLaunchReportListsTheEagerSingletons() {
        let app = CafeAssembly()
        let report = app.buildReport { app.activate() }
        #expect(report.rows.map(\.definition.member) == ["roastery"])
        #expect(report.description.hasPrefix("Built 1 instance in "))
    }

    @Test func aCaptiveIsReportedAndAnIntendedOneIsNot() {
        let app = CachingAssembly()
        let found = Guarded<[String]>([])
        app.checkCaptiveDependencies(
            .report { captive in found.withLock { $0.append("\(captive.chain.map(\.member))") } }
        )
        _ = app.cache
        _ = app.reportCache
        #expect(found.withLock { $0 } == ["[\"cache\", \"audit\"]"])
    }
}
