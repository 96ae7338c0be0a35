// Reads whose cost the documentation states, for `Scripts/count-instructions.sh`: a prototype with
// and without arguments, a cached singleton with arguments, a weak singleton and a resettable
// scope's instance — each against hand-written code that builds or returns the same object.
// Profiled only (`--profile NAME hand|assemblies COUNT`), not timed: instruction counts don't
// depend on the machine's load.

import Assemblies

/// An object built from two values, as a definition with arguments builds it.
final class Ticket: Inspectable, Sendable {
    let holder: String
    let seat: Int
    init(holder: String, seat: Int) {
        self.holder = holder
        self.seat = seat
    }
    var references: [AnyObject?] { [] }
}

extension Scope {
    static let benchmarkSession = Scope.resettable("benchmark-session")
}

final class ScopeCostsAssembly: Assembly, @unchecked Sendable {
    var ticket: Ticket { define(scope: .prototype) { Ticket(holder: "ada", seat: 7) } }

    func ticket(for holder: String, seat: Int) -> Ticket {
        define(scope: .prototype, arguments: holder, seat) { Ticket(holder: holder, seat: seat) }
    }

    func sharedTicket(for holder: String, seat: Int) -> Ticket {
        define(scope: .singleton, arguments: holder, seat) { Ticket(holder: holder, seat: seat) }
    }

    var weakService: SharedService { define(scope: .weakSingleton) { SharedService() } }
    var sessionService: SharedService { define(scope: .benchmarkSession) { SharedService() } }
}

enum ScopeCosts {
    /// The names `--profile` takes for these reads.
    static let names = ["prototype", "prototype-arguments", "singleton-arguments", "weak-singleton", "resettable"]

    /// The hand-written and Assemblies subjects of the read `name`, after checking that the
    /// Assemblies read gets what it should; nil for another name.
    static func subjects(_ name: String) -> [Subject]? {
        let assembly = ScopeCostsAssembly()
        switch name {
        case "prototype":
            check(name, assembly.ticket !== assembly.ticket, "a prototype was shared")
            return subjects(HandWrittenTicket(), AssembliesTicket(assembly: assembly))
        case "prototype-arguments":
            check(name, assembly.ticket(for: "ada", seat: 7).seat == 7, "the arguments didn't reach the body")
            return subjects(HandWrittenTicket(), AssembliesTicketWithArguments(assembly: assembly))
        case "singleton-arguments":
            let first = assembly.sharedTicket(for: "ada", seat: 7)
            check(name, assembly.sharedTicket(for: "ada", seat: 7) === first, "the singleton was built twice")
            check(name, assembly.sharedTicket(for: "ada", seat: 8) !== first, "two arguments shared one singleton")
            return subjects(HandWrittenSingleton(), AssembliesSingletonWithArguments(assembly: assembly))
        case "weak-singleton":
            // Held for the whole run, so that every read finds it alive.
            let held = assembly.weakService
            check(name, assembly.weakService === held, "a weak singleton that is held was built again")
            return subjects(HandWrittenSingleton(), AssembliesWeakSingleton(assembly: assembly, held: held))
        case "resettable":
            check(name, assembly.sessionService === assembly.sessionService, "the scope's instance was built twice")
            return subjects(HandWrittenSingleton(), AssembliesResettable(assembly: assembly))
        default:
            return nil
        }
    }

    private static func subjects<H: Resolution, A: Resolution>(_ hand: H, _ assemblies: A) -> [Subject] {
        [
            Subject(name: VariantKind.handWritten.name) { count in repeatResolving(hand, count: count) },
            Subject(name: VariantKind.assemblies.name) { count in repeatResolving(assemblies, count: count) },
        ]
    }

    private static func check(_ name: String, _ condition: Bool, _ problem: String) {
        if !condition { semanticCheckFailed(name, "Assemblies", problem) }
    }
}

struct HandWrittenTicket: Resolution {
    func resolve() -> Ticket { Ticket(holder: "ada", seat: 7) }
}

struct AssembliesTicket: Resolution {
    let assembly: ScopeCostsAssembly
    func resolve() -> Ticket { assembly.ticket }
}

struct AssembliesTicketWithArguments: Resolution {
    let assembly: ScopeCostsAssembly
    func resolve() -> Ticket { assembly.ticket(for: "ada", seat: 7) }
}

struct AssembliesSingletonWithArguments: Resolution {
    let assembly: ScopeCostsAssembly
    func resolve() -> Ticket { assembly.sharedTicket(for: "ada", seat: 7) }
}

struct AssembliesWeakSingleton: Resolution {
    let assembly: ScopeCostsAssembly
    /// Keeps the instance alive, so that each read finds it.
    let held: SharedService
    func resolve() -> SharedService { assembly.weakService }
}

struct AssembliesResettable: Resolution {
    let assembly: ScopeCostsAssembly
    func resolve() -> SharedService { assembly.sessionService }
}
