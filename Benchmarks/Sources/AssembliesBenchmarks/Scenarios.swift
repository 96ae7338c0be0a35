// The scenarios: for each, one resolution per variant, the checks its graph must pass, and the
// targets Assemblies must meet.

import Assemblies
import Swinject

/// The three ways of building a graph that every scenario compares.
enum VariantKind: Int, CaseIterable {
    case handWritten, assemblies, swinject

    var name: String {
        switch self {
        case .handWritten: "hand-written"
        case .assemblies: "Assemblies"
        case .swinject: "Swinject"
        }
    }
}

/// What Assemblies must achieve in a scenario; `nil` where the scenario sets no such target.
struct Targets {
    /// The most Assemblies may cost, as a multiple of hand-written wiring.
    var maximumVersusHandWritten: Double?
    /// How many times faster than Swinject Assemblies must be.
    var minimumVersusSwinject: Double?
}

/// A scenario: the same graph built by each variant.
struct Scenario {
    let name: String
    let targets: Targets
    /// Timed subjects, in ``VariantKind`` order.
    let subjects: [Subject]
    /// One top-level read per variant, in ``VariantKind`` order, for checks and memory.
    let resolves: [() -> AnyObject]
    /// Runs the semantic checks of every variant; stops the program if one fails.
    let check: () -> Void

    init<H: Resolution, A: Resolution, S: Resolution>(
        _ name: String,
        objectCount: Int,
        singleton: Bool = false,
        targets: Targets,
        handWritten: H,
        assemblies: A,
        swinject: S,
        isValid: @escaping (H.Root) -> String? = { _ in nil }
    ) where A.Root == H.Root, S.Root == H.Root {
        self.name = name
        self.targets = targets
        subjects = [
            Subject(VariantKind.handWritten.name, handWritten),
            Subject(VariantKind.assemblies.name, assemblies),
            Subject(VariantKind.swinject.name, swinject),
        ]
        resolves = [{ handWritten.resolve() }, { assemblies.resolve() }, { swinject.resolve() }]
        let resolves = resolves
        check = {
            let expected = GraphShape(of: handWritten.resolve())
            if expected.objectCount != objectCount {
                semanticCheckFailed(
                    name,
                    "hand-written",
                    "built \(expected.objectCount) objects, expected \(objectCount)"
                )
            }
            for kind in VariantKind.allCases {
                checkVariant(
                    name,
                    kind.name,
                    expected: expected,
                    sharedAcrossReads: singleton,
                    resolve: resolves[kind.rawValue],
                    isValid: { isValid($0 as! H.Root) }
                )
            }
        }
    }
}

// MARK: Swinject, generic over the root type

struct SwinjectResolution<Root: AnyObject>: Resolution {
    let container: Container
    var name: String? = nil
    func resolve() -> Root { container.resolve(Root.self, name: name)! }
}

/// Swinject's thread-safe resolver, for graphs resolved from several threads at once.
struct SynchronizedSwinjectResolution<Root: AnyObject>: Resolution, @unchecked Sendable {
    // @unchecked: `synchronize()` returns a resolver that takes the container's lock for every
    // resolution, which is Swinject's documented way to resolve from several threads.
    let resolver: any Swinject.Resolver
    func resolve() -> Root { resolver.resolve(Root.self)! }
}

// MARK: Prototype chain

struct HandWrittenChain: Resolution {
    func resolve() -> Chain5 { HandWritten.chain() }
}

struct AssembliesChain: Resolution {
    let assembly = ChainAssembly()
    func resolve() -> Chain5 { assembly.chain }
}

// MARK: Diamond

struct HandWrittenDiamond: Resolution {
    func resolve() -> DiamondTop { HandWritten.diamond() }
}

struct AssembliesDiamond: Resolution {
    let assembly = DiamondAssembly()
    func resolve() -> DiamondTop { assembly.top }
}

// MARK: Application (ten objects)

struct HandWrittenApplication: Resolution {
    func resolve() -> Application { HandWritten.application() }
}

struct AssembliesApplication: Resolution {
    let assembly = ApplicationAssembly()
    func resolve() -> Application { assembly.application }
}

/// The same graph, with a resolution observer that does nothing: what observing costs.
struct ObservedAssembliesApplication: Resolution {
    let assembly: ApplicationAssembly = {
        let assembly = ApplicationAssembly()
        assembly.observeResolutions(with: IgnoringObserver())
        return assembly
    }()
    func resolve() -> Application { assembly.application }
}

/// Receives every read, and does nothing with it.
struct IgnoringObserver: ResolutionObserver {
    func didResolve(_ resolution: Assemblies.Resolution) {}
}

// MARK: Singleton

struct HandWrittenSingleton: Resolution {
    func resolve() -> SharedService { HandWritten.sharedService() }
}

struct AssembliesSingleton: Resolution {
    let assembly = SingletonAssembly()
    func resolve() -> SharedService { assembly.sharedService }
}

// MARK: Cycle

struct HandWrittenCycle: Resolution {
    func resolve() -> CycleA { HandWritten.cycle() }
}

struct AssembliesCycle: Resolution {
    let assembly = CycleAssembly()
    func resolve() -> CycleA { assembly.a }
}

// MARK: Scaling

struct HandWrittenScaling10: Resolution {
    func resolve() -> Node { HandWrittenScaling.graph10() }
}

struct HandWrittenScaling100: Resolution {
    func resolve() -> Node { HandWrittenScaling.graph100() }
}

struct HandWrittenScaling1000: Resolution {
    func resolve() -> Node { HandWrittenScaling.graph1000() }
}

struct AssembliesScaling10: Resolution {
    let assembly = Scaling10Assembly()
    func resolve() -> Node { assembly.n0 }
}

struct AssembliesScaling100: Resolution {
    let assembly = Scaling100Assembly()
    func resolve() -> Node { assembly.n0 }
}

struct AssembliesScaling1000: Resolution {
    let assembly = Scaling1000Assembly()
    func resolve() -> Node { assembly.n0 }
}

// MARK: The scenarios

enum Scenarios {
    static func prototypeChain() -> Scenario {
        Scenario(
            "prototype chain (5)",
            objectCount: 5,
            targets: Targets(maximumVersusHandWritten: 1.5, minimumVersusSwinject: 30),
            handWritten: HandWrittenChain(),
            assemblies: AssembliesChain(),
            swinject: SwinjectResolution<Chain5>(container: SwinjectVariant.chainContainer())
        )
    }

    static func diamond() -> Scenario {
        Scenario(
            "diamond (4, 1 shared)",
            objectCount: 4,
            targets: Targets(maximumVersusHandWritten: 2, minimumVersusSwinject: 30),
            handWritten: HandWrittenDiamond(),
            assemblies: AssembliesDiamond(),
            swinject: SwinjectResolution<DiamondTop>(container: SwinjectVariant.diamondContainer()),
            isValid: { top in top.left.bottom === top.right.bottom ? nil : "left and right have different bottoms" }
        )
    }

    static func application() -> Scenario {
        Scenario(
            "graph (10, 2 shared)",
            objectCount: 10,
            targets: Targets(maximumVersusHandWritten: 2, minimumVersusSwinject: 30),
            handWritten: HandWrittenApplication(),
            assemblies: AssembliesApplication(),
            swinject: SwinjectResolution<Application>(container: SwinjectVariant.applicationContainer()),
            isValid: applicationProblem
        )
    }

    /// The graph scenario with an observer set: no target, a row to compare with the graph's.
    static func observedApplication() -> Scenario {
        Scenario(
            "graph (10), observed",
            objectCount: 10,
            targets: Targets(),
            handWritten: HandWrittenApplication(),
            assemblies: ObservedAssembliesApplication(),
            swinject: SwinjectResolution<Application>(container: SwinjectVariant.applicationContainer()),
            isValid: applicationProblem
        )
    }

    static func singleton() -> Scenario {
        Scenario(
            "singleton read (cached)",
            objectCount: 1,
            singleton: true,
            targets: Targets(maximumVersusHandWritten: 3, minimumVersusSwinject: nil),
            handWritten: HandWrittenSingleton(),
            assemblies: AssembliesSingleton(),
            swinject: SwinjectResolution<SharedService>(container: SwinjectVariant.singletonContainer())
        )
    }

    static func cycle() -> Scenario {
        Scenario(
            "property cycle A↔B",
            objectCount: 2,
            targets: Targets(maximumVersusHandWritten: 2, minimumVersusSwinject: 30),
            handWritten: HandWrittenCycle(),
            assemblies: AssembliesCycle(),
            swinject: SwinjectResolution<CycleA>(container: SwinjectVariant.cycleContainer()),
            isValid: { a in a.b?.a === a ? nil : "a.b.a is not a: the cycle is not closed" }
        )
    }

    static let scalingSizes = [10, 100, 1_000]

    /// The scaling graphs, one scenario per size; they are measured interleaved in the same rounds.
    static func scaling() -> [Scenario] {
        let targets = Targets(maximumVersusHandWritten: nil, minimumVersusSwinject: 30)
        return [
            Scenario(
                "scaling, 10 nodes",
                objectCount: 10,
                targets: targets,
                handWritten: HandWrittenScaling10(),
                assemblies: AssembliesScaling10(),
                swinject: SwinjectResolution<Node>(container: SwinjectScaling.graph10Container(), name: "n0"),
                isValid: { scalingProblem($0, size: 10) }
            ),
            Scenario(
                "scaling, 100 nodes",
                objectCount: 100,
                targets: targets,
                handWritten: HandWrittenScaling100(),
                assemblies: AssembliesScaling100(),
                swinject: SwinjectResolution<Node>(container: SwinjectScaling.graph100Container(), name: "n0"),
                isValid: { scalingProblem($0, size: 100) }
            ),
            Scenario(
                "scaling, 1,000 nodes",
                objectCount: 1_000,
                targets: targets,
                handWritten: HandWrittenScaling1000(),
                assemblies: AssembliesScaling1000(),
                swinject: SwinjectResolution<Node>(container: SwinjectScaling.graph1000Container(), name: "n0"),
                isValid: { scalingProblem($0, size: 1_000) }
            ),
        ]
    }

    /// The ten-object graph resolved from one thread and from two threads at once.
    static func threadSubjects() -> [ThreadedSubject] {
        [
            ThreadedSubject(VariantKind.handWritten.name, HandWrittenApplication()),
            ThreadedSubject(VariantKind.assemblies.name, AssembliesApplication()),
            ThreadedSubject(
                VariantKind.swinject.name,
                SynchronizedSwinjectResolution<Application>(
                    resolver: SwinjectVariant.applicationContainer().synchronize()
                )
            ),
        ]
    }

    static let threadScenarioName = "graph (10) on 2 threads"

    // MARK: Checks

    private static func applicationProblem(_ application: Application) -> String? {
        let logger = application.accounts.logger
        let configuration = application.settings.configuration
        let loggers: [AnyObject] = [
            application.accounts.client.logger, application.orders.logger, application.search.cache.logger,
            application.settings.logger,
        ]
        let configurations: [AnyObject] = [
            application.accounts.client.configuration, application.orders.database.configuration,
            application.search.configuration,
        ]
        if !loggers.allSatisfy({ $0 === logger }) { return "the logger is not shared within the graph" }
        if !configurations.allSatisfy({ $0 === configuration }) {
            return "the configuration is not shared within the graph"
        }
        return nil
    }

    /// Node `i` must point at nodes `2i+1`, `2i+2`, `2i+3` (those below `size`), one object per id.
    private static func scalingProblem(_ root: Node, size: Int) -> String? {
        let nodes = GraphShape.objects(reachableFrom: root).map { $0 as! Node }
        let ids = Set(nodes.map(\.id))
        if nodes.count != size || ids.count != size || ids != Set(0..<size) {
            return
                "expected one object for each of the ids 0..<\(size), found \(nodes.count) objects with \(ids.count) ids"
        }
        for node in nodes {
            let children = [node.first, node.second, node.third].map { $0?.id }
            let expected = (1...3).map { 2 * node.id + $0 < size ? 2 * node.id + $0 : nil }
            if children != expected {
                return "node \(node.id) points at \(children), expected \(expected)"
            }
        }
        return nil
    }
}
