// Creating assemblies that join a family rather than start one.

/// What an assembly being created picks up from the resolver as its `init()` runs: an initializer
/// the user writes takes no argument the library could add, so the family it joins, or the
/// configuration it starts one with, is handed over here.
///
/// One at a time, saved and restored around each creation that hands something over
/// (``Resolver/makeAssembly(_:in:)``, `init(configuration:)`): an assembly created that way while
/// another one is (by a stored property of it, say) finds its own, and the outer one finds its own
/// again. A plain `init()` hands nothing over, so one nested directly in `init(configuration:)` of
/// the same type takes that configuration.
enum AssemblyInCreation {
    /// A collaborator of the type `type` joins `family` (see ``Resolver/makeAssembly(_:in:)``).
    case joining(Family, type: ObjectIdentifier)
    /// A root of the type `type`, created by `init(configuration:)`, starts its family with
    /// `configuration`.
    case configured(FamilyConfiguration, type: ObjectIdentifier)
}

extension Resolver {
    // MARK: Collaborators

    /// Creates an assembly that joins `family` rather than starting a family of its own.
    func makeAssembly<A: Assembly>(_ type: A.Type, in family: Family) -> A {
        let outer = assemblyInCreation
        assemblyInCreation = .joining(family, type: ObjectIdentifier(type))
        defer { assemblyInCreation = outer }
        return type.init()
    }

    /// The family that an assembly of `type` being created joins, if a family is creating it.
    func takePendingFamily(for type: Assembly.Type) -> Family? {
        guard case .joining(let family, ObjectIdentifier(type)) = assemblyInCreation else { return nil }
        assemblyInCreation = nil
        return family
    }

    // MARK: Configured roots

    /// Hands `configuration` to the root of `type` that `init(configuration:)` creates next, with the
    /// `init()` it delegates to; returns what was pending before, for ``endRoot(_:)``.
    func beginRoot(_ type: Assembly.Type, configuredWith configuration: FamilyConfiguration) -> AssemblyInCreation? {
        defer { assemblyInCreation = .configured(configuration, type: ObjectIdentifier(type)) }
        return assemblyInCreation
    }

    /// Restores what was pending before ``beginRoot(_:configuredWith:)``.
    func endRoot(_ outer: AssemblyInCreation?) {
        assemblyInCreation = outer
    }

    /// The configuration of the family a root of `type` being created starts, if it was given one.
    func takePendingConfiguration(for type: Assembly.Type) -> FamilyConfiguration? {
        guard case .configured(let configuration, ObjectIdentifier(type)) = assemblyInCreation else { return nil }
        assemblyInCreation = nil
        return configuration
    }
}
