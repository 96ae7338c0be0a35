import Assemblies
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// Recorded graphs: each instance once, an edge per read, cycles and shared instances visible, and
// exact DOT and Mermaid text; build reports: what was built, in order, with times.

private final class GraphRoastery {}
private final class GraphCup {}
private final class GraphBarista {
    var roastery: GraphRoastery?
    weak var cafe: GraphCafe?
}
private final class GraphCafe {
    var barista: GraphBarista?
    var cups: [GraphCup] = []
}
private struct GraphMenu {
    let items: [String]
}

private final class GraphAssembly: Assembly, @unchecked Sendable {
    var cafe: GraphCafe {
        define { definition in
            let cafe = definition *~> GraphCafe()
            cafe.barista = self.barista
            cafe.cups = [self.cup, self.cup]
            return cafe
        }
    }
    var barista: GraphBarista {
        define { definition in
            let barista = definition *~> GraphBarista()
            barista.roastery = self.roastery
            barista.cafe = self.cafe
            return barista
        }
    }
    var cup: GraphCup { define(scope: .prototype) { GraphCup() } }
    var roastery: GraphRoastery { define(scope: .singleton) { GraphRoastery() } }
    var menu: GraphMenu { define { GraphMenu(items: [self.dish("tea"), self.dish("cake")]) } }
    func dish(_ name: String) -> String { define(scope: .prototype, arguments: name) { name.uppercased() } }
    var generic: [String] { define(scope: .prototype) { ["#1 & <b>"] } }

    override func buildEagerSingletons() {
        _ = roastery
    }
}

private final class SlowLaunchAssembly: Assembly, @unchecked Sendable {
    var api: GraphBarista {
        define(scope: .singleton) {
            _ = self.database
            return GraphBarista()
        }
    }
    var database: GraphRoastery {
        define(scope: .singleton) {
            usleep(30_000)
            return GraphRoastery()
        }
    }

    override func buildEagerSingletons() {
        _ = api
    }
}

@Suite struct RecordedGraphTests {
    @Test func dotShowsEachInstanceOnceWithItsScopeAndTheCycle() {
        let app = GraphAssembly()
        let graph = app.recordGraph { _ = app.cafe }
        #expect(
            graph.dot == """
                digraph Assemblies {
                  node [style=filled, fontname="Helvetica"];
                  n1 [label="GraphAssembly.cafe\\nGraphCafe · objectGraph", shape=ellipse, fillcolor="#d9ead3"];
                  n2 [label="GraphAssembly.barista\\nGraphBarista · objectGraph", shape=ellipse, fillcolor="#d9ead3"];
                  n3 [label="GraphAssembly.roastery\\nGraphRoastery · singleton", shape=doubleoctagon, fillcolor="#cfe2f3"];
                  n4 [label="GraphAssembly.cup\\nGraphCup · prototype", shape=box, fillcolor="#f3f3f3"];
                  n5 [label="GraphAssembly.cup\\nGraphCup · prototype", shape=box, fillcolor="#f3f3f3"];
                  n1 -> n2;
                  n2 -> n3;
                  n2 -> n1 [style=dashed, label="in flight"];
                  n1 -> n4;
                  n1 -> n5;
                }

                """
        )
    }

    @Test func mermaidShowsTheSameGraph() {
        let app = GraphAssembly()
        let graph = app.recordGraph { _ = app.cafe }
        #expect(
            graph.mermaid == """
                flowchart TD
                  n1(["GraphAssembly.cafe<br/>GraphCafe · objectGraph"])
                  n2(["GraphAssembly.barista<br/>GraphBarista · objectGraph"])
                  n3[["GraphAssembly.roastery<br/>GraphRoastery · singleton"]]
                  n4["GraphAssembly.cup<br/>GraphCup · prototype"]
                  n5["GraphAssembly.cup<br/>GraphCup · prototype"]
                  n1 --> n2
                  n2 --> n3
                  n2 -. in flight .-> n1
                  n1 --> n4
                  n1 --> n5
                  classDef objectGraph fill:#d9ead3,stroke:#555555
                  class n1,n2 objectGraph
                  classDef singleton fill:#cfe2f3,stroke:#555555
                  class n3 singleton
                  classDef prototype fill:#f3f3f3,stroke:#555555
                  class n4,n5 prototype

                """
        )
    }

    @Test func aSharedSingletonIsOneNodeAcrossGraphs() {
        let app = GraphAssembly()
        let graph = app.recordGraph {
            _ = app.cafe
            _ = app.cafe
        }
        #expect(graph.nodes.filter { $0.definition.member == "roastery" }.count == 1)
        #expect(graph.nodes.filter { $0.definition.member == "cafe" }.count == 2, "one per object graph")
        #expect(graph.edges.filter { $0.to == 3 }.count == 2, "read from both baristas")
    }

    @Test func valuesAndArguments() {
        let app = GraphAssembly()
        let graph = app.recordGraph { _ = app.menu }
        #expect(graph.nodes.map(\.arguments) == [[], ["\"tea\""], ["\"cake\""]])
        #expect(graph.mermaid.contains("n2[\"GraphAssembly.dish(_:)<br/>(#quot;tea#quot;)<br/>String · prototype\"]"))
        #expect(graph.dot.contains("n2 [label=\"GraphAssembly.dish(_:)\\n(\\\"tea\\\")\\nString · prototype\""))
    }

    @Test func mermaidEscapesMarkupInLabels() {
        let app = GraphAssembly()
        let graph = app.recordGraph { _ = app.generic }
        #expect(
            graph.mermaid.contains("n1[\"GraphAssembly.generic<br/>Array#lt;String#gt; · prototype\"]"),
            "\(graph.mermaid)"
        )
        #expect(graph.dot.contains("label=\"GraphAssembly.generic\\nArray<String> · prototype\""), "\(graph.dot)")
    }

    @Test func recordsActivation() {
        let app = GraphAssembly()
        let graph = app.recordGraph { app.activate() }
        #expect(graph.nodes.map(\.definition.description) == ["GraphAssembly.roastery"])
    }

    @Test func recordsOnlyThisThread() {
        let app = GraphAssembly()
        let graph = app.recordGraph {
            onThreads(2) { _ in _ = app.cup }
            _ = app.roastery
        }
        #expect(graph.nodes.map(\.definition.member) == ["roastery"])
    }

    @Test func recordingEndsWithTheBlock() {
        let app = GraphAssembly()
        _ = app.recordGraph { _ = app.cup }
        let collected = Guarded(0)
        _ = app.recordGraph { collected.withLock { $0 += 1 } }
        let graph = app.recordGraph {}
        #expect(graph.nodes.isEmpty)
    }

    @Test func theSlowestBodyComesFirstTimedWithoutWhatItRead() {
        let app = SlowLaunchAssembly()
        let report = app.buildReport { app.activate() }
        #expect(report.rows.map(\.definition.member) == ["api", "database"])
        #expect(report.slowestFirst.map(\.definition.member) == ["database", "api"])
        #expect(report.rows[1].ownNanoseconds >= 30_000_000)
        #expect(report.rows[0].nanoseconds >= 30_000_000, "api's time includes the database's")
        #expect(report.rows[0].ownNanoseconds < 30_000_000, "its own time doesn't")
        #expect(report.description.split(separator: "\n")[2].hasSuffix("  singleton      SlowLaunchAssembly.database"))
    }

    @Test func buildReportListsWhatWasBuiltSlowestFirst() {
        let app = GraphAssembly()
        _ = app.roastery
        let report = app.buildReport { _ = app.cafe }
        #expect(report.rows.map(\.definition.member) == ["cafe", "barista", "cup", "cup"], "the roastery existed")
        #expect(report.rows.map(\.order) == [1, 2, 3, 4])
        #expect(report.rows[0].nanoseconds >= report.rows[0].ownNanoseconds)
        #expect(report.rows[0].nanoseconds >= report.rows[1].nanoseconds)
        let owns = report.slowestFirst.map(\.ownNanoseconds)
        #expect(owns == owns.sorted(by: >))
        let lines = report.description.split(separator: "\n")
        #expect(lines[0].hasPrefix("Built 4 instances in "))
        #expect(lines[1] == "    own ms   total ms  scope          definition")
        #expect(lines.count == 6)
    }
}
