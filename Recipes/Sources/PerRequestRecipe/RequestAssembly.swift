import Assemblies

struct Request: Hashable, Sendable {
    let id: Int
    let user: String
}

final class ConnectionPool: Sendable {}

/// One per request: what the handler and the repository of one request share.
final class RequestContext {
    let request: Request
    init(request: Request) { self.request = request }
}

final class OrderRepository {
    let context: RequestContext
    let pool: ConnectionPool
    init(context: RequestContext, pool: ConnectionPool) {
        self.context = context
        self.pool = pool
    }
}

final class OrderHandler {
    let context: RequestContext
    let repository: OrderRepository
    init(context: RequestContext, repository: OrderRepository) {
        self.context = context
        self.repository = repository
    }

    func respond() -> String { "orders of \(context.request.user) (request \(context.request.id))" }
}

/// Lives as long as the server, and needs a new graph for each request: it keeps a provider.
final class OrderController: Sendable {
    private let makeHandler: @Sendable (Request) -> OrderHandler

    init(makeHandler: @escaping @Sendable (Request) -> OrderHandler) {
        self.makeHandler = makeHandler
    }

    func handle(_ request: Request) -> String { makeHandler(request).respond() }
}

final class ServerAssembly: Assembly, @unchecked Sendable {
    var pool: ConnectionPool { define(scope: .singleton) { ConnectionPool() } }

    /// The top of a request's graph: one read per request.
    func handler(for request: Request) -> OrderHandler {
        define(arguments: request) {
            OrderHandler(context: self.context(for: request), repository: self.repository(for: request))
        }
    }

    func repository(for request: Request) -> OrderRepository {
        define(arguments: request) { OrderRepository(context: self.context(for: request), pool: self.pool) }
    }

    func context(for request: Request) -> RequestContext {
        define(arguments: request) { RequestContext(request: request) }
    }
}

extension ServerAssembly {
    var controller: OrderController {
        define(scope: .singleton) {
            OrderController(makeHandler: self.provider { server, request in server.handler(for: request) })
        }
    }
}
