import Assemblies
import Foundation
import Testing

// Async definitions: members declared `get async` whose bodies await. A top-level `await` read
// owns one graph across every suspension; synchronous members read in it join it; singletons are
// built once, with readers suspended rather than blocked.

private final class Connection: @unchecked Sendable {
    let url: String
    init(url: String) { self.url = url }

    /// Connects after a few suspensions, so that the task is likely to resume on other threads.
    static func open(_ url: String) async -> Connection {
        for _ in 0..<3 { await Task.yield() }
        try? await Task.sleep(nanoseconds: 1_000_000)
        return Connection(url: url)
    }
}

private final class Log: @unchecked Sendable {}

private final class Repository: @unchecked Sendable {
    let connection: Connection
    let log: Log
    init(connection: Connection, log: Log) {
        self.connection = connection
        self.log = log
    }
}

private final class Service: @unchecked Sendable {
    let repository: Repository
    let log: Log
    var partner: Partner?
    init(repository: Repository, log: Log) {
        self.repository = repository
        self.log = log
    }
}

private final class Partner: @unchecked Sendable {
    var service: Service?
    let log: Log
    init(log: Log) { self.log = log }
}

private final class AsyncAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var log: Log { define { Log() } }

    var connection: Connection {
        get async {
            await define {
                counter.tick("connection")
                return await Connection.open("postgres://localhost/app")
            }
        }
    }

    var sharedConnection: Connection {
        get async {
            await define(scope: .singleton) {
                counter.tick("sharedConnection")
                return await Connection.open("postgres://localhost/shared")
            }
        }
    }

    var repository: Repository {
        get async { await define { Repository(connection: await self.connection, log: self.log) } }
    }

    var service: Service {
        get async {
            await define { definition in
                let service = definition *~> Service(repository: await self.repository, log: self.log)
                await Task.yield()
                service.partner = await self.partner
                return service
            }
        }
    }

    var partner: Partner {
        get async {
            await define { definition in
                let partner = definition *~> Partner(log: self.log)
                await Task.yield()
                partner.service = await self.service
                return partner
            }
        }
    }

    var freshConnection: Connection {
        get async { await define(scope: .prototype) { await Connection.open("fresh") } }
    }

    func connection(to url: String) async -> Connection {
        await define(arguments: url) { await Connection.open(url) }
    }
}

@Suite("Async definitions")
struct AsyncDefinitionTests {
    @Test func aBodyAwaitsAndTheReadGetsTheInstance() async {
        let app = AsyncAssembly()
        let connection = await app.connection
        #expect(connection.url == "postgres://localhost/app")
        #expect(app.counter["connection"] == 1)
    }

    @Test func oneGraphAcrossSuspensions() async {
        let app = AsyncAssembly()
        let service = await app.service
        // `log` is read synchronously in three bodies, each after suspensions: one instance.
        #expect(service.log === service.repository.log)
        #expect(service.partner?.log === service.log)
        // The cycle closes through the instance registered before the first `await`.
        #expect(service.partner?.service === service)
        #expect(app.counter["connection"] == 1)
    }

    @Test func eachTopLevelReadHasAGraphOfItsOwn() async {
        let app = AsyncAssembly()
        let first = await app.service
        let second = await app.service
        #expect(first !== second)
        #expect(first.log !== second.log)
    }

    @Test func concurrentTopLevelReadsNeverShareAGraph() async {
        let app = AsyncAssembly()
        let services = await withTaskGroup(of: Service.self) { group in
            for _ in 0..<50 { group.addTask { await app.service } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(services.map { ObjectIdentifier($0.log) }).count == 50)
        for service in services {
            #expect(service.repository.log === service.log)
            #expect(service.partner?.service === service)
        }
    }

    @Test func aSingletonIsBuiltOnceFor100Tasks() async {
        let app = AsyncAssembly()
        let connections = await withTaskGroup(of: Connection.self) { group in
            for _ in 0..<100 { group.addTask { await app.sharedConnection } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(app.counter["sharedConnection"] == 1)
        #expect(Set(connections.map(ObjectIdentifier.init)).count == 1)
    }

    @Test func prototypesAndArguments() async {
        let app = AsyncAssembly()
        let first = await app.freshConnection
        let second = await app.freshConnection
        #expect(first !== second)
        let a = await app.connection(to: "a")
        #expect(a.url == "a")
    }
}
