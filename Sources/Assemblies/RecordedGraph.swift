/// The object graph that reads of a family made while a block of code ran, recorded by
/// ``Assembly/recordGraph(of:)``: each instance once, with an edge to each instance its body read.
///
/// ```swift
/// let graph = app.recordGraph { _ = app.cafe }
/// print(graph.mermaid)   // or graph.dot, for Graphviz
/// ```
///
/// A shared instance has several incoming edges; a cycle shows as a dashed edge back to an instance
/// that was still being built (*in flight*). Each scope has its own shape and colour.
public struct RecordedGraph: Sendable {
    /// An instance: the definition that built it (or that a read reused it from).
    public struct Node: Hashable, Sendable {
        /// The node's number, from 1, in the order the reads that reached it started.
        public let number: Int
        public let definition: DefinitionName
        public let scope: Scope
        /// The name of the type the definition returns.
        public let type: String
        /// The argument values it was read with, as Swift writes them.
        public let arguments: [String]
    }

    /// A read made while building `from`, which got `to`.
    public struct Edge: Hashable, Sendable {
        public let from: Int
        public let to: Int
        /// Whether `to` was still being built: the edge closes a cycle.
        public let isInFlight: Bool
    }

    /// The instances, in the order their first reads started.
    public let nodes: [Node]
    /// The reads between them, in the order they started, each once.
    public let edges: [Edge]

    init(_ resolutions: [Resolution]) {
        // Failed reads made no instance; the rest in the order they started, parents first.
        let reads = resolutions.filter { $0.source != .failed }.sorted { $0.sequence < $1.sequence }
        enum Identity: Hashable {
            case object(ObjectIdentifier, DefinitionName, graph: UInt64)
            case definition(DefinitionName, [String], graph: UInt64)
        }
        var nodes: [Node] = []
        var numbers: [Identity: Int] = [:]
        var nodeOfRead: [UInt64: Int] = [:]
        /// The top-level read each read belongs to: outside stored scopes, instances are only shared
        /// within it.
        var rootOfRead: [UInt64: UInt64] = [:]
        for read in reads {
            let root = read.parentSequence.flatMap { rootOfRead[$0] } ?? read.sequence
            rootOfRead[read.sequence] = root
            let isStored = read.scope.kind != .prototype && read.scope.kind != .objectGraph
            let graph = isStored ? 0 : root
            let identity =
                read.instance.map { Identity.object($0, read.definition, graph: graph) }
                ?? .definition(read.definition, read.arguments, graph: graph)
            // A body that ran made a new instance, even at the address of one that was freed.
            let known = read.source == .built ? nil : numbers[identity]
            let number =
                known
                ?? {
                    let node = Node(
                        number: nodes.count + 1,
                        definition: read.definition,
                        scope: read.scope,
                        type: read.type,
                        arguments: read.arguments
                    )
                    nodes.append(node)
                    return node.number
                }()
            numbers[identity] = number
            nodeOfRead[read.sequence] = number
        }
        var edges: [Edge] = []
        var seen: Set<Edge> = []
        for read in reads {
            guard let parent = read.parentSequence.flatMap({ nodeOfRead[$0] }), let node = nodeOfRead[read.sequence]
            else { continue }
            let edge = Edge(from: parent, to: node, isInFlight: read.source == .inFlight)
            if seen.insert(edge).inserted { edges.append(edge) }
        }
        self.nodes = nodes
        self.edges = edges
    }

    // MARK: Text

    /// The graph in Graphviz's DOT language: `dot -Tsvg graph.dot -o graph.svg`.
    ///
    /// ```
    /// digraph Assemblies {
    ///   node [style=filled, fontname="Helvetica"];
    ///   n1 [label="AppAssembly.cafe\nCafe · objectGraph", shape=ellipse, fillcolor="#d9ead3"];
    ///   n2 [label="AppAssembly.logger\nLogger · singleton", shape=doubleoctagon, fillcolor="#cfe2f3"];
    ///   n1 -> n2;
    /// }
    /// ```
    public var dot: String {
        var lines = ["digraph Assemblies {", "  node [style=filled, fontname=\"Helvetica\"];"]
        for node in nodes {
            let style = Self.style(of: node.scope)
            let label = node.label.escaping(["\\": "\\\\", "\"": "\\\"", "\n": "\\n"])
            lines.append(
                "  n\(node.number) [label=\"\(label)\", shape=\(style.dotShape), fillcolor=\"\(style.colour)\"];"
            )
        }
        for edge in edges {
            lines.append(
                "  n\(edge.from) -> n\(edge.to)\(edge.isInFlight ? " [style=dashed, label=\"in flight\"]" : "");"
            )
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, which GitHub and many Markdown viewers draw from a
    /// ` ```mermaid ` block.
    ///
    /// ```
    /// flowchart TD
    ///   n1(["AppAssembly.cafe<br/>Cafe · objectGraph"])
    ///   n2[["AppAssembly.logger<br/>Logger · singleton"]]
    ///   n1 --> n2
    ///   classDef objectGraph fill:#d9ead3,stroke:#555555
    ///   class n1 objectGraph
    ///   ...
    /// ```
    public var mermaid: String {
        var lines = ["flowchart TD"]
        for node in nodes {
            let style = Self.style(of: node.scope)
            // Characters Mermaid would read as markup, as its entity codes.
            let label = node.label.escaping([
                "#": "#35;", "&": "#amp;", "<": "#lt;", ">": "#gt;", "\"": "#quot;", "\n": "<br/>",
            ])
            lines.append("  n\(node.number)\(style.mermaidOpen)\"\(label)\"\(style.mermaidClose)")
        }
        for edge in edges {
            lines.append("  n\(edge.from) \(edge.isInFlight ? "-. in flight .->" : "-->") n\(edge.to)")
        }
        var classes: [(style: Style, members: [Int])] = []
        for node in nodes {
            let style = Self.style(of: node.scope)
            if let index = classes.firstIndex(where: { $0.style.className == style.className }) {
                classes[index].members.append(node.number)
            } else {
                classes.append((style, [node.number]))
            }
        }
        for (style, members) in classes {
            lines.append("  classDef \(style.className) fill:\(style.colour),stroke:#555555")
            lines.append("  class \(members.map { "n\($0)" }.joined(separator: ",")) \(style.className)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Style {
        let dotShape: String
        let mermaidOpen: String
        let mermaidClose: String
        let colour: String
        let className: String
    }

    /// Each scope's shape and colour.
    static func style(of scope: Scope) -> Style {
        switch scope.kind {
        case .prototype:
            Style(dotShape: "box", mermaidOpen: "[", mermaidClose: "]", colour: "#f3f3f3", className: "prototype")
        case .objectGraph:
            Style(
                dotShape: "ellipse",
                mermaidOpen: "([",
                mermaidClose: "])",
                colour: "#d9ead3",
                className: "objectGraph"
            )
        case .singleton:
            Style(
                dotShape: "doubleoctagon",
                mermaidOpen: "[[",
                mermaidClose: "]]",
                colour: "#cfe2f3",
                className: "singleton"
            )
        case .weakSingleton:
            Style(
                dotShape: "octagon",
                mermaidOpen: "{{",
                mermaidClose: "}}",
                colour: "#d9d2e9",
                className: "weakSingleton"
            )
        case .resettable:
            Style(
                dotShape: "hexagon",
                mermaidOpen: "[/",
                mermaidClose: "/]",
                colour: "#fce5cd",
                className: "resettable"
            )
        }
    }
}

extension RecordedGraph.Node {
    /// `AppAssembly.cafe`, the arguments, then `Cafe · objectGraph`, on lines of their own.
    var label: String {
        var label = definition.description
        if !arguments.isEmpty { label += "\n(\(arguments.joined(separator: ", ")))" }
        return label + "\n\(type) · \(scope)"
    }
}

extension String {
    /// The text with each character that `replacements` names written as its replacement, in one
    /// pass (without Foundation).
    func escaping(_ replacements: [Character: String]) -> String {
        var result = ""
        for character in self {
            if let replacement = replacements[character] { result += replacement } else { result.append(character) }
        }
        return result
    }
}
