// The semantic checks: every variant must build the same object graph before anything is timed.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The shape of an object graph: its objects' types and who points at whom, up to identity.
///
/// Objects are numbered in the order a depth-first walk of ``Inspectable/references`` first meets
/// them, so two graphs have equal shapes exactly when they have the same types, the same sharing
/// (one object reached along two paths), and the same cycles.
struct GraphShape: Equatable, CustomStringConvertible {
    /// The type of each object, by number.
    private(set) var types: [String] = []
    /// Each object's references, as object numbers, or -1 for `nil`.
    private(set) var references: [[Int]] = []

    init(of root: AnyObject) {
        var numbers: [ObjectIdentifier: Int] = [:]
        func visit(_ object: AnyObject) -> Int {
            if let number = numbers[ObjectIdentifier(object)] { return number }
            let number = types.count
            numbers[ObjectIdentifier(object)] = number
            types.append(String(describing: type(of: object)))
            references.append([])
            let targets = (object as? Inspectable)?.references ?? []
            references[number] = targets.map { $0.map(visit) ?? -1 }
            return number
        }
        _ = visit(root)
    }

    var objectCount: Int { types.count }

    var description: String {
        types.indices.map { "#\($0) \(types[$0]) → \(references[$0].map { $0 < 0 ? "nil" : "#\($0)" })" }
            .joined(separator: "; ")
    }

    /// Every object reachable from `root`, each once.
    static func objects(reachableFrom root: AnyObject) -> [AnyObject] {
        var seen: Set<ObjectIdentifier> = []
        var found: [AnyObject] = []
        var pending: [AnyObject] = [root]
        while let object = pending.popLast() {
            guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
            found.append(object)
            pending.append(contentsOf: ((object as? Inspectable)?.references ?? []).compactMap { $0 })
        }
        return found
    }
}

/// Stops the run: a variant does not build what the others build, so its timings would mean nothing.
func semanticCheckFailed(_ scenario: String, _ variant: String, _ problem: String) -> Never {
    let message = "SEMANTIC CHECK FAILED in \(scenario), \(variant): \(problem)\n"
    writeToStandardError(message)
    exit(1)
}

/// Checks that one variant builds the expected graph.
///
/// - The graph has `expected`'s shape: same types, sharing and cycles as the hand-written wiring.
/// - `isValid` holds (the scenario's own assertions, spelled out).
/// - Two reads in a row share nothing (`sharedAcrossReads == false`), or return the very same
///   object (a singleton).
func checkVariant(
    _ scenario: String,
    _ variant: String,
    expected: GraphShape,
    sharedAcrossReads: Bool = false,
    resolve: () -> AnyObject,
    isValid: (AnyObject) -> String?
) {
    let first = resolve()
    let shape = GraphShape(of: first)
    if shape != expected {
        semanticCheckFailed(scenario, variant, "built \(shape), expected \(expected)")
    }
    if let problem = isValid(first) {
        semanticCheckFailed(scenario, variant, problem)
    }
    let second = resolve()  // `first` is still alive, so no address is reused
    let firstObjects = Set(GraphShape.objects(reachableFrom: first).map(ObjectIdentifier.init))
    let secondObjects = Set(GraphShape.objects(reachableFrom: second).map(ObjectIdentifier.init))
    if sharedAcrossReads {
        if first !== second {
            semanticCheckFailed(scenario, variant, "two reads returned different instances of a singleton")
        }
    } else if !firstObjects.isDisjoint(with: secondObjects) {
        semanticCheckFailed(
            scenario,
            variant,
            "two top-level reads share \(firstObjects.intersection(secondObjects).count) object(s)"
        )
    }
    withExtendedLifetime(first) {}
}

/// What one thread resolved, written by that thread only and read after it has been joined.
private final class ResolvedGraphs: @unchecked Sendable {
    var roots: [AnyObject] = []
}

/// Checks that graphs resolved on two threads at the same time are each whole, and that no object
/// is shared between any two of them (every graph is kept alive, so no address is reused).
func checkConcurrentResolutions(_ scenario: String, _ subject: ThreadedSubject, expected: GraphShape, count: Int) {
    let perThread = [ResolvedGraphs(), ResolvedGraphs()]
    let resolve = subject.resolve
    onThreads(2) { index in
        var roots: [AnyObject] = []
        roots.reserveCapacity(count)
        for _ in 0..<count {
            roots.append(resolve())
        }
        perThread[index].roots = roots
    }
    var seen: Set<ObjectIdentifier> = []
    for (thread, graphs) in perThread.enumerated() {
        for root in graphs.roots {
            let shape = GraphShape(of: root)
            if shape != expected {
                semanticCheckFailed(scenario, subject.name, "thread \(thread) built \(shape), expected \(expected)")
            }
            for object in GraphShape.objects(reachableFrom: root) {
                if !seen.insert(ObjectIdentifier(object)).inserted {
                    semanticCheckFailed(scenario, subject.name, "two graphs resolved concurrently share an object")
                }
            }
        }
    }
}
