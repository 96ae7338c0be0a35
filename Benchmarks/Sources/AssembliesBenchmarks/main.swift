// Assemblies benchmarks: hand-written wiring vs Assemblies vs Swinject.
//
//     swift run -c release --package-path Benchmarks AssembliesBenchmarks [--quick] [--rounds N] [--require-targets]
//
// Every scenario first checks that the three variants build the same object graph (sharing,
// identity, closed cycles) and stops with exit status 1 if one does not. Then it times the variants
// interleaved in rounds, counts allocations, and prints one table. `--quick` (or the environment
// variable ASSEMBLIES_BENCHMARKS_QUICK=1) makes a pass of a few seconds that still runs every check.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let usage = """
    usage: AssembliesBenchmarks [--quick] [--rounds N] [--only GROUP]... [--require-targets]

      --quick            a pass of a few seconds with every semantic check (also: ASSEMBLIES_BENCHMARKS_QUICK=1)
      --rounds N         rounds per scenario (default 400; thread scaling uses a sixth of them)
      --only GROUP       run only this group of scenarios (repeatable): \(BenchmarkRun.groups.joined(separator: ", "))
      --require-targets  exit with status 2 when a target is missed
      --stack            only print the stack bytes one nesting level of a graph takes, in this build's
                         configuration (build with -c debug and -c release to see both)
      --profile GROUP VARIANT COUNT
                         only run COUNT resolutions of one variant (hand, assemblies or swinject) of one scenario
                         (chain, diamond, graph, observed, singleton or cycle), for a profiler such as valgrind --tool=callgrind;
                         async-singleton, async-graph and the reads the documentation quotes — prototype,
                         prototype-arguments, singleton-arguments, weak-singleton, resettable — take hand or assemblies;
                         singleton-elsewhere and graph-elsewhere read while another task's overrides of
                         the family apply (assemblies), or the same family when nobody overrides it (quiet);
                         nested builds COUNT chains of 10,000 async levels (object-graph or singleton)
    """

var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--cold-start" {
    // Before anything else in this process: what the child times is the first of its kind.
    guard let what = arguments.dropFirst().first.flatMap(ColdStart.What.init(rawValue:)) else {
        writeToStandardError("--cold-start needs one of \(ColdStart.What.allCases.map(\.rawValue))\n")
        exit(64)
    }
    ColdStart.child(what)
}
var isQuick = getenv("ASSEMBLIES_BENCHMARKS_QUICK").map { String(cString: $0) == "1" } ?? false
var requiresTargets = false
var rounds: Int?
var only: Set<String> = []
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        isQuick = true
    case "--require-targets":
        requiresTargets = true
    case "--rounds":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            writeToStandardError("--rounds needs a positive number\n\(usage)\n")
            exit(64)
        }
        rounds = value
    case "--only":
        guard let group = arguments.popFirst(), BenchmarkRun.groups.contains(group) else {
            writeToStandardError("--only needs one of \(BenchmarkRun.groups.joined(separator: ", "))\n\(usage)\n")
            exit(64)
        }
        only.insert(group)
    case "--profile":
        let variants = ["hand": VariantKind.handWritten, "assemblies": .assemblies, "swinject": .swinject]
        let asyncScenarios = ["async-singleton": AsyncScenarios.singleton, "async-graph": AsyncScenarios.application]
        if let name = arguments.first, ScopeCosts.names.contains(name) {
            guard let variant = arguments.dropFirst().first.flatMap({ variants[$0] }), variant != .swinject,
                let count = arguments.dropFirst(2).first.flatMap({ Int($0) }), let subjects = ScopeCosts.subjects(name)
            else {
                writeToStandardError("--profile \(name) needs hand or assemblies, and a count\n\(usage)\n")
                exit(64)
            }
            subjects[variant.rawValue].run(count)
            exit(0)
        }
        if let name = arguments.first, let subjects = asyncScenarios[name] {
            guard let variant = arguments.dropFirst().first.flatMap({ variants[$0] }), variant != .swinject,
                let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
            else {
                writeToStandardError("--profile \(name) needs hand or assemblies, and a count\n\(usage)\n")
                exit(64)
            }
            subjects()[variant.rawValue].run(count)
            exit(0)
        }
        if arguments.first == "nested" {
            let chains = ["object-graph": 0, "singleton": 1]
            guard let chain = arguments.dropFirst().first.flatMap({ chains[$0] }),
                let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
            else {
                writeToStandardError("--profile nested needs object-graph or singleton, and a count\n\(usage)\n")
                exit(64)
            }
            NestedSingletons.subjects()[chain].run(count)
            exit(0)
        }
        if let name = arguments.first, name == "singleton-elsewhere" || name == "graph-elsewhere" {
            let condition: [String: Elsewhere] = ["assemblies": .overridden, "quiet": .quiet]
            guard let elsewhere = arguments.dropFirst().first.flatMap({ condition[$0] }),
                let count = arguments.dropFirst(2).first.flatMap({ Int($0) })
            else {
                writeToStandardError("--profile \(name) needs assemblies or quiet, and a count\n\(usage)\n")
                exit(64)
            }
            let assembly = ElsewhereAssembly.withSingletonBuilt()
            let end = elsewhere.begin(in: assembly)
            let subject =
                name == "singleton-elsewhere"
                ? Subject(VariantKind.assemblies.name, ElsewhereSingleton(assembly: assembly))
                : Subject(VariantKind.assemblies.name, ElsewhereApplication(assembly: assembly))
            subject.run(count)
            end()
            exit(0)
        }
        guard let scenario = arguments.popFirst().flatMap(BenchmarkRun.scenario),
            let variant = arguments.popFirst().flatMap({ variants[$0] }),
            let count = arguments.popFirst().flatMap({ Int($0) })
        else {
            writeToStandardError("--profile needs a scenario, a variant and a count\n\(usage)\n")
            exit(64)
        }
        scenario.check()
        scenario.subjects[variant.rawValue].run(count)
        exit(0)
    case "--stack":
        print(StackDepth.report())
        exit(0)
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        writeToStandardError("unknown argument \(argument)\n\(usage)\n")
        exit(64)
    }
}

var plan = isQuick ? MeasurementPlan.quick : MeasurementPlan.full
if let rounds {
    plan.rounds = rounds
    plan.threadRounds = max(1, rounds / 6)
}

#if DEBUG
writeToStandardError("warning: a debug build; measure with `swift run -c release`\n")
#endif

let started = monotonicNanoseconds()
var run = BenchmarkRun(plan: plan, isQuick: isQuick, only: only)
run.runAll()
let seconds = Double(monotonicNanoseconds() - started) / 1e9

let parallelism =
    run.machineParallelism.map {
        " Parallelism the machine offered during the thread rounds (a CPU-only loop, 2 threads ÷ 1): \(Format.ratio($0))."
    } ?? ""
let missed = run.targets.filter { !$0.met }
print(
    """
    Assemblies benchmarks\(isQuick ? " (QUICK: checks only, numbers are rough)" : "") — \(plan.rounds) rounds of \
    ~\(Format.number(Double(plan.sampleNanoseconds) / 1e6)) ms samples, variants interleaved in shuffled order; \
    \(Format.number(seconds)) s
    """
)
print()
print(run.table.rendered)
print()
print(
    """
    ns/op: median nanoseconds per resolution (per node in the scaling rows; wall clock per resolution in the thread \
    rows, Swinject through its synchronized resolver). Ratios: median of per-round ratios, (min–max) over rounds. \
    allocs/op: malloc calls per resolution\(Allocations.areCounted ? "" : " (not counted on this platform)"), the \
    objects themselves included (a weakly referenced object also gets a side table: 3 for the cycle's 2 objects). \
    alive after drop: objects of one graph still alive once the caller drops it. heap kept: bytes allocated and never \
    freed per resolution, after the graph is gone.\(parallelism) Semantic checks passed for every variant. Targets missed: \(missed.count) of \
    \(run.targets.count).
    """
)

print()
print(StackDepth.report())

if requiresTargets && !missed.isEmpty {
    exit(2)
}
