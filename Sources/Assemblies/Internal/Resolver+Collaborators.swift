// Creating assemblies that join a family rather than start one.

extension Resolver {
    // MARK: Collaborators

    /// Creates an assembly that joins `family` rather than starting a family of its own.
    func makeAssembly<A: Assembly>(_ type: A.Type, in family: Family) -> A {
        let outerFamily = pendingFamily
        let outerType = pendingType
        pendingFamily = family
        pendingType = ObjectIdentifier(type)
        let assembly = type.init()
        pendingFamily = outerFamily
        pendingType = outerType
        return assembly
    }

    /// The family that an assembly of `type` being created joins, if a family is creating it.
    func takePendingFamily(for type: Assembly.Type) -> Family? {
        guard pendingType == ObjectIdentifier(type), let family = pendingFamily else { return nil }
        pendingFamily = nil
        pendingType = nil
        return family
    }
}
