import Assemblies

let server = ServerAssembly()

// Before serving: every root the server reads — a request's graph through the controller, with a
// sample request — read once in a sandbox of the family.
let check = WiringCheck(of: server)
check.read(\.controller)
check.read("a request's handler") { server in _ = server.controller.handle(Request(id: 0, user: "sample")) }
print(await check.run())

// Requests handled at once, in tasks of their own: each call of the provider is a graph of its own.
let controller = server.controller
let requests = [Request(id: 1, user: "ada"), Request(id: 2, user: "grace"), Request(id: 3, user: "alan")]
let responses = await withTaskGroup(of: (Int, String).self) { group in
    for request in requests {
        group.addTask {
            let handler = controller.handle(request)
            let sharesItsContext = handler.repository.context === handler.context  // true: one graph
            let sharesThePool = handler.repository.pool === server.pool  // true: one singleton
            return (request.id, "\(handler.respond()): \(sharesItsContext), \(sharesThePool)")
        }
    }
    var responses: [Int: String] = [:]
    for await (id, response) in group {
        responses[id] = response
    }
    return responses
}
for id in responses.keys.sorted() {
    print(responses[id]!)
}

// The controller, a singleton, keeps a provider, which doesn't keep the family alive.
weak var releasedPool: ConnectionPool?
do {
    let server = ServerAssembly()
    print(server.controller.handle(Request(id: 4, user: "ada")).respond())
    releasedPool = server.pool
}
print("pool released with its server: \(releasedPool == nil)")
