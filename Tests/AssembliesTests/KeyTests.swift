import Assemblies
import Testing

private final class KeyLogger {
    let category: String
    init(category: String) { self.category = category }
}

private protocol Greeter {
    func greet() -> String
}

private struct EnglishGreeter: Greeter {
    func greet() -> String { "Hello" }
}

private struct Settings: Equatable {
    var volume: Int
    var name: String
    var tags: [String]
}

private enum Mode: Equatable {
    case fast
    case careful(retries: Int)
}

private final class NetworkAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var requestLogger: KeyLogger { define { KeyLogger(category: "requests") } }
    var cacheLogger: KeyLogger { define { KeyLogger(category: "cache") } }
    var sharedLogger: KeyLogger { define(withKey: "shared-logger") { KeyLogger(category: "network") } }
    var sharedPair: (KeyLogger, KeyLogger) { define { (self.sharedLogger, self.sharedLogger) } }
    var unnamedLogger: KeyLogger { define(withKey: "") { KeyLogger(category: "network") } }

    var greeter: any Greeter { define(scope: .singleton) { EnglishGreeter() } }
    var settings: Settings {
        define {
            counter.tick()
            return Settings(volume: 11, name: "loud", tags: ["a", "b", "c"])
        }
    }
    var mode: Mode { define(scope: .singleton) { .careful(retries: 3) } }
    var settingsTwice: (Settings, Settings) { define { (self.settings, self.settings) } }
}

private final class StorageAssembly: Assembly, @unchecked Sendable {
    var network: NetworkAssembly { collaborator() }
    var requestLogger: KeyLogger { define { KeyLogger(category: "storage") } }
    var sharedLogger: KeyLogger { define(withKey: "shared-logger") { KeyLogger(category: "storage") } }
    var unnamedLogger: KeyLogger { define(withKey: "") { KeyLogger(category: "unnamed") } }
    var unnamedPair: (KeyLogger, KeyLogger) { define { (self.unnamedLogger, self.network.unnamedLogger) } }

    var loggers: [KeyLogger] {
        define { [self.requestLogger, self.network.requestLogger, self.sharedLogger, self.network.sharedLogger] }
    }
}

/// Definitions whose keys differ only where a key's packed parts could lose them: a line of 2³² or
/// more (the `line:` parameter is public), a one-scalar name; and a prototype.
private final class FarLineAssembly: Assembly, @unchecked Sendable {
    var near: KeyLogger { define(line: 7) { KeyLogger(category: "near") } }
    #if _pointerBitWidth(_64)
    var far: KeyLogger { define(function: "near", line: 1 << 32) { KeyLogger(category: "far") } }
    #endif
    var prototype: KeyLogger { define(scope: .prototype) { KeyLogger(category: "prototype") } }

    var x: KeyLogger { define(function: "x") { KeyLogger(category: "x") } }
    var y: KeyLogger { define(function: "y") { KeyLogger(category: "y") } }
    var scalars: (KeyLogger, KeyLogger, KeyLogger) { define { (self.x, self.y, self.x) } }
}

@Suite struct KeyTests {
    #if _pointerBitWidth(_64)
    @Test func aLineOfTwoToTheThirtySecondOrMoreStops() async {
        // A key keeps its line in 32 bits: 2³² would read as line 0, an explicit key.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FarLineAssembly().far
        }
        let message = stderr(of: result)
        #expect(message.contains("FarLineAssembly.near calls `define` with line 4294967296"))
        #expect(message.contains("To fix this, leave `line:` to its default"))
    }
    #endif

    @Test func aThreadsFirstReadMakesItsResolverThroughEitherEntry() {
        // A getter of an object-graph definition and one of a prototype enter the engine through two
        // entries; each makes the thread's resolver when its read is the thread's first.
        let assembly = FarLineAssembly()
        let categories = Guarded<[Int: String]>([:])
        onThreads(2) { thread in
            let logger = thread == 0 ? assembly.prototype : assembly.near
            categories.withLock { $0[thread] = logger.category }
        }
        #expect(categories.withLock { $0 } == [0: "prototype", 1: "near"])
    }

    @Test func oneScalarMemberNamesAreKeysToo() {
        let (x, y, xAgain) = FarLineAssembly().scalars
        #expect(x.category == "x")
        #expect(y.category == "y")
        #expect(x === xAgain)
    }

    @Test func twoDefinitionsOfOneTypeInOneAssemblyDoNotCollide() {
        let assembly = NetworkAssembly()
        #expect(assembly.requestLogger.category == "requests")
        #expect(assembly.cacheLogger.category == "cache")
    }

    @Test func sameMemberNameInTwoAssembliesDoesNotCollide() {
        let loggers = StorageAssembly().loggers
        #expect(loggers[0].category == "storage")
        #expect(loggers[1].category == "requests")
        #expect(loggers[0] !== loggers[1])
    }

    @Test func anExplicitKeyIsOneSlotForTheWholeFamily() {
        let loggers = StorageAssembly().loggers
        #expect(loggers[2] === loggers[3])
        let pair = NetworkAssembly().sharedPair
        #expect(pair.0 === pair.1)
    }

    @Test func anEmptyExplicitKeyIsOneSlotToo() {
        let storage = StorageAssembly()
        #expect(storage.unnamedLogger !== storage.unnamedLogger)
        let pair = storage.unnamedPair
        #expect(pair.0 === pair.1)
    }

    @Test func definitionsMayBeProtocolsStructsAndEnums() {
        let assembly = NetworkAssembly()
        #expect(assembly.greeter.greet() == "Hello")
        #expect(assembly.settings == Settings(volume: 11, name: "loud", tags: ["a", "b", "c"]))
        #expect(assembly.mode == .careful(retries: 3))
        #expect(assembly.mode == assembly.mode)
    }

    @Test func aValueDefinitionIsBuiltOncePerGraph() {
        let assembly = NetworkAssembly()
        let (first, second) = assembly.settingsTwice
        #expect(first == second)
        #expect(assembly.counter["settings"] == 1)
    }
}
