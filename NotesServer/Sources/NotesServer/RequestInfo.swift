import Hummingbird

/// What a request's graph knows of its request: the value the controller's provider carries into it.
public struct RequestInfo: Sendable {
    public let method: String
    public let path: String

    public init(method: String, path: String) {
        self.method = method
        self.path = path
    }

    init(_ request: Request) {
        self.init(method: "\(request.method)", path: request.uri.path)
    }
}
