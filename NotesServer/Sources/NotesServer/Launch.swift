import Assemblies
import Hummingbird
import Logging
import ServiceLifecycle

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension NotesAppAssembly {
    /// The roots the server reads, checked in a sandbox of the family: the application, and a
    /// request's graph through the controller's provider, with a sample request.
    public func checkWiring() async -> WiringReport {
        let check = WiringCheck(of: self)
        check.read(\.http.application)
        check.read("a request's handler") { app in
            _ = await app.http.controller.makeHandler(RequestInfo(method: "GET", path: "/notes"))
        }
        return await check.run()
    }

    /// Checks the wiring, exports the graph, then serves until SIGTERM or SIGINT, and shuts the
    /// family down once the server has stopped. Throws when the wiring check finds a problem.
    public func serve() async throws {
        // Read before the family shuts down, which refuses reads from then on.
        let logger = self.logger
        let report = await checkWiring()
        guard report.problems.isEmpty else {
            logger.critical("the wiring check failed:\n\(report)")
            throw WiringCheckFailed(report: report)
        }
        logger.info("wiring checked: no problem")
        let graph = await recordGraph {
            _ = await self.http.controller.makeHandler(RequestInfo(method: "GET", path: "/"))
        }
        if let path = settings.graphPath {
            try graph.mermaid.write(toFile: path, atomically: true, encoding: .utf8)
            logger.info("wiring graph written to \(path)")
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [FamilyService(root: self), http.application],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        logger.info("stopped")
    }
}

/// The wiring check at launch found problems.
public struct WiringCheckFailed: Error, CustomStringConvertible {
    public let report: WiringReport
    public var description: String { "the wiring check failed:\n\(report)" }
}
