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

    // MARK: Configured roots

    /// Hands `configuration` to the root of `type` that `init(configuration:)` creates next, with the
    /// `init()` it delegates to; returns what was pending before, for ``endRoot(_:)``.
    func beginRoot(
        _ type: Assembly.Type,
        configuredWith configuration: FamilyConfiguration
    ) -> (FamilyConfiguration?, ObjectIdentifier?) {
        defer {
            pendingConfiguration = configuration
            pendingConfigurationType = ObjectIdentifier(type)
        }
        return (pendingConfiguration, pendingConfigurationType)
    }

    /// Restores what was pending before ``beginRoot(_:configuredWith:)``.
    func endRoot(_ outer: (FamilyConfiguration?, ObjectIdentifier?)) {
        (pendingConfiguration, pendingConfigurationType) = outer
    }

    /// The configuration of the family a root of `type` being created starts, if it was given one.
    func takePendingConfiguration(for type: Assembly.Type) -> FamilyConfiguration? {
        guard pendingConfigurationType == ObjectIdentifier(type), let configuration = pendingConfiguration else {
            return nil
        }
        pendingConfiguration = nil
        pendingConfigurationType = nil
        return configuration
    }
}
