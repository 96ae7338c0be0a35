import Assemblies
import Logging
import ServiceLifecycle

/// Stands in for the HTTP server: serves until the group shuts down gracefully.
struct RequestServer: Service {
    let handle: @Sendable (String) -> NotesHandler
    let served: AsyncStream<Void>.Continuation

    func run() async throws {
        print(handle("/notes").respond())
        served.yield()
        try? await gracefulShutdown()
        print("server stopped")
    }
}

let app = NotesAssembly()
let (served, didServe) = AsyncStream<Void>.makeStream()
let group = ServiceGroup(
    services: [
        FamilyService(root: app),  // shut down last
        RequestServer(handle: app.provider { app, path in app.handler(for: path) }, served: didServe),
    ],
    gracefulShutdownSignals: [.sigterm],
    logger: Logger(label: "notes", factory: { _ in SwiftLogNoOpLogHandler() })
)
async let running: Void = group.run()
for await _ in served { break }
await group.triggerGracefulShutdown()  // what SIGTERM does
try await running
