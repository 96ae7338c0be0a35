import Assemblies

struct Request: Sendable {
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

final class ServerAssembly: Assembly, @unchecked Sendable {
    var pool: ConnectionPool { define(scope: .singleton) { ConnectionPool() } }

    /// The request of the graph being built: the value the controller's provider carries into it.
    var request: Request { define { self.graphArgument(Request.self) } }

    /// The top of a request's graph.
    var handler: OrderHandler { define { OrderHandler(context: self.context, repository: self.repository) } }

    var repository: OrderRepository { define { OrderRepository(context: self.context, pool: self.pool) } }

    var context: RequestContext { define { RequestContext(request: self.request) } }
}

/// Lives as long as the server, and needs a new graph for each request: it keeps a provider.
final class OrderController: Sendable {
    private let makeHandler: @Sendable (Request) -> OrderHandler

    init(makeHandler: @escaping @Sendable (Request) -> OrderHandler) {
        self.makeHandler = makeHandler
    }

    func handle(_ request: Request) -> OrderHandler { makeHandler(request) }
}

extension ServerAssembly {
    var controller: OrderController {
        define(scope: .singleton) { OrderController(makeHandler: self.provider(\.handler, carrying: Request.self)) }
    }
}
