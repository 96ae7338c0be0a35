/// The values a provider carries into the graph each of its calls opens (see
/// ``Providing/provider(_:carrying:file:line:)`` and ``Assembly/graphArgument(_:)``): one of each
/// type, kept by the graph until it closes.
final class GraphArguments {
    private let values: [ObjectIdentifier: Any]

    init<each Value>(_ values: repeat each Value) {
        var byType: [ObjectIdentifier: Any] = [:]
        var names: [String] = []
        func add<V>(_ value: V) {
            // By the static type the provider names: a subclass's value is read as its superclass.
            byType[ObjectIdentifier(V.self)] = value
            names.append(String(describing: V.self))
        }
        repeat add(each values)
        self.values = byType
        typeNames = names.sorted()
    }

    /// The value of type `T`, if the provider carried one.
    func value<T>(of _: T.Type) -> T? {
        values[ObjectIdentifier(T.self)] as? T
    }

    /// The names of the types carried, for messages.
    let typeNames: [String]
}

extension Resolver {
    /// Runs `body`, whose reads of `family` are reads in a graph of its own that carries `arguments`:
    /// opened here, or on the spare while a graph is open here, and finished when `body` returns —
    /// given up when it throws.
    func inGraphOfItsOwn<Result, E: Error>(
        of family: Family,
        carrying arguments: GraphArguments,
        _ body: () throws(E) -> Result
    ) throws(E) -> Result {
        if graph.familyID != 0 || graph.isClosing {
            let spare = spare(crossingWith: nil)
            spare.install(over: self)
            defer { spare.uninstall() }
            return try spare.inGraphOfItsOwn(of: family, carrying: arguments, body)
        }
        beginGraph(asTheTaskSees: family)
        graph.arguments = arguments
        let result: Result
        do {
            result = try body()
        } catch {
            abandonGraph()
            throw error
        }
        finishGraph()
        return result
    }

    /// The arguments of the graph of `family` that the read running here belongs to, if it carries
    /// any; stops when a stored definition being built would read them.
    func graphArguments(of family: Family) -> GraphArguments? {
        guard let owner = chain.first(where: { $0.graph.familyID == family.id }) else { return nil }
        owner.refuseGraphArgumentsToStoredInstances()
        return owner.graph.arguments
    }

    /// Stops when a frame below the current read builds a singleton, a weak singleton or an instance
    /// of a resettable scope: it would keep the arguments of the first graph that built it.
    private func refuseGraphArgumentsToStoredInstances() {
        if let last = building.last, last.frame >= frames.count || frames[last.frame].serial != last.serial {
            // A hook of a stored definition whose body has returned (its frame is gone): it keeps
            // what its hooks read.
            Failure.graphArgumentReadByStoredInstance(
                [last.slot.key] + (last.frame..<frames.count).map { key(ofFrame: $0) }
            )
        }
        for index in stride(from: frames.count - 1, through: 0, by: -1) {
            switch frames[index].scope {
            case .singleton, .weakSingleton, .resettable:
                Failure.graphArgumentReadByStoredInstance(chain(from: index, to: key(ofFrame: frames.count - 1)))
            case .objectGraph, .prototype:
                continue
            }
        }
    }
}

extension AsyncGraph {
    /// The arguments of the current task's graph of `family`, if it has one that carries any.
    static func arguments(of family: Family) -> GraphArguments? {
        ofCurrentTask(of: family)?.resolver.graphArguments(of: family)
    }

    /// Runs `body`, whose reads of `family` are reads in a new graph of the current task that carries
    /// `arguments`, finished when `body` returns — given up when it throws.
    static func inGraphOfItsOwn<Result, E: Error>(
        of family: Family,
        carrying arguments: GraphArguments,
        isolation: isolated (any Actor)?,
        _ body: () async throws(E) -> Result
    ) async throws(E) -> Result {
        let outer = ofCurrentTask()
        if outer?.reads(family) ?? false {
            Failure.providerCarryingInsideARead(family.configuration.rootType)
        }
        var graph = open(family, inside: outer)
        graph.installed { $0.graph.arguments = arguments }
        let result: Result
        do {
            result = try await body()
        } catch {
            graph.abandon()
            throw error
        }
        finish(&graph)
        return result
    }
}
