import Assemblies
import ServiceLifecycle

/// A family of assemblies as a service of a `ServiceGroup`: it builds the family's eager singletons
/// when the group starts, and shuts the family down when the group shuts down gracefully. Listed
/// before the services that read the family: a group shuts its services down in the reverse order.
public struct FamilyService<Root: Assembly>: Service {
    let root: Root

    public init(root: Root) {
        self.root = root
    }

    public func run() async throws {
        try await root.activate()
        // Until the group shuts down gracefully — or cancels its services: the family shuts down then too.
        try? await gracefulShutdown()
        try await root.shutDown()
    }
}
