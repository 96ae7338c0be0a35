import Assemblies
import Testing

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
}
