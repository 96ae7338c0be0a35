import Hummingbird

/// The routes of the API. A singleton: it keeps a provider that builds each request's graph.
public final class NotesController: Sendable {
    let makeHandler: @Sendable (RequestInfo) async -> NotesHandler

    init(makeHandler: @escaping @Sendable (RequestInfo) async -> NotesHandler) {
        self.makeHandler = makeHandler
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("health") { _, _ in "ok" }
        router.get("notes") { request, _ in
            try await self.makeHandler(RequestInfo(request)).list()
        }
        router.post("notes") { request, context in
            let new = try await request.decode(as: NewNote.self, context: context)
            return try await self.makeHandler(RequestInfo(request)).create(new)
        }
        router.get("notes/:id") { request, context in
            try await self.makeHandler(RequestInfo(request)).show(
                id: try context.parameters.require("id", as: Int.self)
            )
        }
        router.delete("notes/:id") { request, context in
            try await self.makeHandler(RequestInfo(request)).delete(
                id: try context.parameters.require("id", as: Int.self)
            )
        }
    }
}
