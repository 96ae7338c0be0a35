import Assemblies
import Hummingbird
import Logging

/// The root of the server's family: its settings, its logger, and the assemblies of its parts.
public final class NotesAppAssembly: Assembly, @unchecked Sendable {
    public var storage: StorageAssembly { collaborator() }
    public var http: HTTPAssembly { collaborator() }

    public var settings: ServerSettings { configuration(ServerSettings.self) }

    public var logger: Logger {
        define(scope: .singleton) {
            var logger = Logger(label: "notes")
            logger.logLevel = self.settings.logLevel
            return logger
        }
    }

    /// The store opens when the server starts, not at the first request.
    override public func buildAsyncEagerSingletons() async throws {
        _ = await storage.noteStore
    }
}

/// Where notes are kept.
public final class StorageAssembly: Assembly, @unchecked Sendable {
    var app: NotesAppAssembly { collaborator() }

    /// The store, opened once; closed when the family shuts down.
    public var noteStore: any NoteStore {
        get async {
            await define(scope: .singleton) { definition in
                definition.onShutdown { store in
                    try await store.close()
                    self.app.logger.info("shut down: note store")
                }
                let store = InMemoryNoteStore()
                await Task.yield()  // where a real store would connect
                return store as any NoteStore
            }
        }
    }
}

/// The HTTP side: the application, its router, the controller, and each request's graph.
public final class HTTPAssembly: Assembly, @unchecked Sendable {
    var app: NotesAppAssembly { collaborator() }
    var storage: StorageAssembly { collaborator() }

    /// The application, which a `ServiceGroup` runs.
    public var application: Application<RouterResponder<BasicRequestContext>> {
        define(scope: .singleton) {
            let settings = self.app.settings
            return Application(
                router: self.router,
                configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "notes"),
                logger: self.app.logger
            )
        }
    }

    var router: Router<BasicRequestContext> {
        define(scope: .singleton) {
            let router = Router(context: BasicRequestContext.self)
            self.controller.addRoutes(to: router)
            return router
        }
    }

    /// Keeps a provider that builds a graph per request, carrying the request into it.
    public var controller: NotesController {
        define(scope: .singleton) { definition in
            definition.onShutdown { _ in self.app.logger.info("shut down: notes controller") }
            return NotesController(makeHandler: self.provider(carrying: RequestInfo.self) { await $0.handler })
        }
    }

    // MARK: A request's graph

    /// The request of the graph being built.
    public var request: RequestInfo { define { self.graphArgument(RequestInfo.self) } }

    /// The request's logger: one per graph, shared by everything of the request.
    public var requestLogger: Logger {
        define {
            var logger = self.app.logger
            logger[metadataKey: "request"] = "\(self.request.method) \(self.request.path)"
            return logger
        }
    }

    public var handler: NotesHandler {
        get async {
            await define {
                NotesHandler(
                    request: self.request,
                    store: await self.storage.noteStore,
                    logger: self.requestLogger,
                    validator: self.validator
                )
            }
        }
    }

    var validator: NoteValidator { define { NoteValidator(logger: self.requestLogger) } }
}
