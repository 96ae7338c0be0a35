#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The context shared by a root assembly and every assembly reached from it: the assemblies
/// themselves (one per type), the singletons, and a unique identity.
///
/// Ownership: the root assembly and every collaborator hold the family strongly; the family holds
/// collaborators strongly and the root weakly. When the root is released, the family lets go of
/// its collaborators, so nothing cycles. A collaborator kept beyond its root still works with the
/// same singletons, but assemblies it reaches afterwards are new instances each time.
@usableFromInline
final class Family: Sendable {
    /// Unique for the life of the process, so a per-thread cache can never mistake a new family
    /// for a released one at the same address.
    @usableFromInline let id: UInt64
    /// A copy of the global ``resolverKey``, read on every resolution without the lazy-global check.
    @usableFromInline let resolverKey = Assemblies.resolverKey
    private let state = Locked(State())

    private static let lastID = Locked<UInt64>(0)

    @usableFromInline
    struct Singleton {
        let object: AnyObject
        let key: DefinitionKey
    }

    private struct State {
        var singletons: [DefinitionKey: Singleton] = [:]
        /// The first definition read under each explicit key, to catch the key used for another type.
        var explicitKeys: [DefinitionKey: DefinitionKey] = [:]
        var assemblies: [ObjectIdentifier: Assembly] = [:]
        weak var root: Assembly?
        var rootID: ObjectIdentifier?
        var isOrphaned = false
    }

    init() {
        id = Self.lastID.withLock { lastID in
            lastID += 1
            return lastID
        }
    }

    // MARK: Assemblies

    func adopt(root: Assembly) {
        state.withLock { state in
            state.root = root
            state.rootID = ObjectIdentifier(root)
        }
    }

    func rootWillDeinit(_ assembly: Assembly) {
        let released: [Assembly] = state.withLock { state in
            guard state.rootID == ObjectIdentifier(assembly) else { return [] }
            state.isOrphaned = true
            defer { state.assemblies = [:] }
            return Array(state.assemblies.values)
        }
        _ = released  // released here, outside the lock, because their deinit runs user code
    }

    /// The family's instance of `type`: the root when it is one, else the collaborator, made on first use.
    func assembly<A: Assembly>(of type: A.Type) -> A {
        let found: Assembly? = state.withLock { state in
            if let root = state.root as? A { return root }
            return state.assemblies[ObjectIdentifier(type)]
        }
        if let found { return unsafeDowncast(found, to: A.self) }
        let made = Resolver.withCurrent { resolver in resolver.makeAssembly(type, in: self) }
        return state.withLock { state in
            if state.isOrphaned { return made }
            if let raced = state.assemblies[ObjectIdentifier(type)] { return unsafeDowncast(raced, to: A.self) }
            state.assemblies[ObjectIdentifier(type)] = made
            return made
        }
    }

    // MARK: Explicit keys

    /// Stops when `key`, an explicit key, was first read in this family as another type.
    func checkExplicitKey(_ key: DefinitionKey) {
        let first = state.withLock { state in
            if let first = state.explicitKeys[key] { return first }
            state.explicitKeys[key] = key
            return key
        }
        key.requireSameType(as: first)
    }

    // MARK: Singletons

    func singleton(for key: DefinitionKey) -> Singleton? {
        state.withLock { $0.singletons[key] }
    }

    func publish(_ built: [(key: DefinitionKey, object: AnyObject)]) {
        state.withLock { state in
            for (key, object) in built {
                state.singletons[key] = Singleton(object: object, key: key)
            }
        }
    }
}

/// Serialises the building of singletons across the process, so each is built exactly once.
///
/// It is recursive because a singleton body reads other definitions, singletons among them. Reads
/// of singletons that are already published never take it.
let singletonBuilder = Lock(recursive: true)
