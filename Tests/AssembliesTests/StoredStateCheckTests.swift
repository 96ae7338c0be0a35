import Assemblies
import Testing

// The debug-build check that an assembly keeps no mutable state of its own: a stored `var` stops
// the program with its name the first time an assembly of the type is created.

private final class StateSettings: Sendable {
    let name = "settings"
}

private final class StateService {}

/// Immutable stored properties of Sendable types, computed and static properties: all allowed.
private class AllowedStateAssembly: Assembly, @unchecked Sendable {
    let settings = StateSettings()
    let tally = Counter()  // a Sendable class whose state is behind a lock
    let name = "allowed"
    nonisolated(unsafe) static var instances = 0
    var service: StateService { define { StateService() } }
    var computed: Int { name.count }
}

private final class AllowedSubclassAssembly: AllowedStateAssembly, @unchecked Sendable {
    let more = StateSettings()
}

private final class CountingAssembly: Assembly, @unchecked Sendable {
    var requestCount = 0
    var service: StateService { define { StateService() } }
}

private final class LazyAssembly: Assembly, @unchecked Sendable {
    lazy var cache = StateService()
}

private class MutableBaseAssembly: Assembly, @unchecked Sendable {
    var cachedName: String?
}

private final class InheritingAssembly: MutableBaseAssembly, @unchecked Sendable {
    let label = "inheriting"
}

private final class GenericAssembly<Value: Sendable>: Assembly, @unchecked Sendable {
    var value: Value?
}

private final class ReachingAssembly: Assembly, @unchecked Sendable {
    var counting: CountingAssembly { collaborator() }
}

@Suite struct StoredStateCheckTests {
    @Test func immutableSendableStoredPropertiesAreAllowed() {
        let assembly = AllowedSubclassAssembly()
        _ = assembly.service
        #expect(assembly.computed == 7)
        AllowedStateAssembly.instances += 1
    }

    @Test func aStoredVarStopsNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CountingAssembly()
        }
        #expect(
            stderr(of: result).contains(
                "CountingAssembly declares the stored property `var requestCount`, but an assembly keeps no "
                    + "mutable state: every thread that reads its family shares it, so a stored variable races"
            ),
            "\(stderr(of: result))"
        )
        #expect(
            stderr(of: result).contains(
                "To fix this, make it a `let` of a `Sendable` type (a class that locks, for a value that "
                    + "changes), give the family the value with `init(configuration:)`, or define the object it holds."
            )
        )
    }

    @Test func aLazyVarStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = LazyAssembly()
        }
        #expect(
            stderr(of: result).contains("LazyAssembly declares the stored property `lazy var cache`"),
            "\(stderr(of: result))"
        )
    }

    @Test func aSuperclassesVarStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = InheritingAssembly()
        }
        #expect(
            stderr(of: result).contains("MutableBaseAssembly declares the stored property `var cachedName`"),
            "\(stderr(of: result))"
        )
    }

    @Test func aGenericAssemblysVarStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = GenericAssembly<Int>()
        }
        #expect(
            stderr(of: result).contains("GenericAssembly<Int> declares the stored property `var value`"),
            "\(stderr(of: result))"
        )
    }

    @Test func aCollaboratorIsCheckedWhenTheFamilyCreatesIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let root = ReachingAssembly()
            _ = root.counting.service
        }
        #expect(
            stderr(of: result).contains("CountingAssembly declares the stored property `var requestCount`"),
            "\(stderr(of: result))"
        )
    }
}
