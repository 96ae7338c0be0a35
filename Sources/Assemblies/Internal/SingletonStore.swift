/// The instances a family keeps between graphs: singletons, weak singletons, and the instances of
/// resettable scopes, by key.
///
/// A family has one store; so does each ``OverrideContext``, so that a test's doubles, and the
/// singletons built on them, never reach the family or another test. Objects are stored as
/// ``boxSingleton(_:)`` makes them, except weak singletons, which are always objects.
@usableFromInline
final class SingletonStore: Sendable {
    private let state = Locked(State())

    /// A stored instance and the key that built it (for an explicit key, its type is checked).
    struct Singleton {
        let object: AnyObject
        let key: DefinitionKey
        /// The arguments `key` refers to, kept as long as the key.
        let arguments: ArgumentList?
    }

    /// A singleton built in a graph, waiting for the graph to close.
    struct Built {
        let key: DefinitionKey
        let arguments: ArgumentList?
        let scope: Scope
        let object: AnyObject
    }

    private struct WeakSingleton {
        weak var object: AnyObject?
        let key: DefinitionKey
        let arguments: ArgumentList?
    }

    /// A resettable scope's instances, and the order they were built in.
    private struct Resettable {
        var instances: [DefinitionKey: Singleton] = [:]
        var order: [Singleton] = []
    }

    private struct State {
        var singletons: [DefinitionKey: Singleton] = [:]
        var weakSingletons: [DefinitionKey: WeakSingleton] = [:]
        var resettables: [UInt32: Resettable] = [:]
    }

    /// The instance stored for `key` in `scope`, or nil (also when a weak singleton is gone).
    func singleton(for key: DefinitionKey, in scope: Scope) -> Singleton? {
        state.withLock { state -> Singleton? in
            switch scope.kind {
            case .weakSingleton:
                guard let stored = state.weakSingletons[key] else { return nil }
                guard let object = stored.object else {
                    state.weakSingletons[key] = nil
                    return nil
                }
                return Singleton(object: object, key: stored.key, arguments: stored.arguments)
            case .resettable:
                return state.resettables[scope.nameID]?.instances[key]
            default:
                return state.singletons[key]
            }
        }
    }

    /// Stores what a graph built, in the order it built it.
    func publish(_ built: [Built]) {
        // An entry is removed before it is stored again, so that the dictionary keeps the key whose
        // arguments the new value holds (assigning to an existing key keeps the old key).
        state.withLock { state in
            for item in built {
                let singleton = Singleton(object: item.object, key: item.key, arguments: item.arguments)
                switch item.scope.kind {
                case .weakSingleton:
                    state.weakSingletons.removeValue(forKey: item.key)
                    state.weakSingletons[item.key] = WeakSingleton(
                        object: item.object,
                        key: item.key,
                        arguments: item.arguments
                    )
                case .resettable:
                    state.resettables[item.scope.nameID, default: Resettable()].instances.removeValue(forKey: item.key)
                    state.resettables[item.scope.nameID]?.instances[item.key] = singleton
                    state.resettables[item.scope.nameID]?.order.append(singleton)
                default:
                    state.singletons.removeValue(forKey: item.key)
                    state.singletons[item.key] = singleton
                }
            }
        }
    }

    /// Drops the instances of a resettable scope; returns them, the most recently built first.
    func reset(_ scope: Scope) -> [AnyObject] {
        state.withLock { state in
            guard let dropped = state.resettables.removeValue(forKey: scope.nameID) else { return [] }
            return dropped.order.reversed().map(\.object)
        }
    }
}
