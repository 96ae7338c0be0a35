import Assemblies

let server = ServerAssembly()

// Before serving: every root the server reads, the per-request ones with a sample request, read
// once in a sandbox of the family.
let check = WiringCheck(of: server)
check.read(\.controller)
check.read("handler(for:)") { server in _ = server.handler(for: Request(id: 0, user: "sample")) }
print(await check.run())

// Requests handled at once, in tasks of their own: each top-level read is a graph of its own.
let requests = [Request(id: 1, user: "ada"), Request(id: 2, user: "grace"), Request(id: 3, user: "alan")]
let responses = await withTaskGroup(of: (Int, String).self) { group in
    for request in requests {
        group.addTask {
            let handler = server.handler(for: request)
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

// A singleton that keeps a provider: each call is a graph of its own, and the provider doesn't keep
// the family alive.
weak var releasedPool: ConnectionPool?
do {
    let server = ServerAssembly()
    let controller = server.controller
    print(controller.handle(Request(id: 4, user: "ada")))
    print(controller.handle(Request(id: 5, user: "grace")))
    releasedPool = server.pool
}
print("pool released with its server: \(releasedPool == nil)")
