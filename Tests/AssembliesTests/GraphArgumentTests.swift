import Assemblies
import Testing

private struct ArgRequest: Sendable, Equatable {
    let id: Int
}

private final class ArgContext {}

private final class ArgStore: Sendable {}

private final class ArgHandler {
    let request: ArgRequest
    let context: ArgContext
    let contextAgain: ArgContext
    let store: ArgStore

    init(request: ArgRequest, context: ArgContext, contextAgain: ArgContext, store: ArgStore) {
        self.request = request
        self.context = context
        self.contextAgain = contextAgain
        self.store = store
    }
}

private final class ArgSession {
    let request: ArgRequest
    init(request: ArgRequest) { self.request = request }
}

private struct ArgSessionError: Error, Equatable {}

private final class ArgBox {
    var request: ArgRequest?
}

private class ArgKind: @unchecked Sendable {}
private final class ArgAdminKind: ArgKind, @unchecked Sendable {}

private final class ArgController: Sendable {
    let makeHandler: @Sendable (ArgRequest) -> ArgHandler
    let makeSession: @Sendable (ArgRequest) async -> ArgSession
    let makeCheckedSession: @Sendable (ArgRequest) async throws(ArgSessionError) -> ArgSession

    init(
        makeHandler: @escaping @Sendable (ArgRequest) -> ArgHandler,
        makeSession: @escaping @Sendable (ArgRequest) async -> ArgSession,
        makeCheckedSession: @escaping @Sendable (ArgRequest) async throws(ArgSessionError) -> ArgSession
    ) {
        self.makeHandler = makeHandler
        self.makeSession = makeSession
        self.makeCheckedSession = makeCheckedSession
    }
}

private final class ArgServerAssembly: Assembly, @unchecked Sendable {
    var store: ArgStore { define(scope: .singleton) { ArgStore() } }

    var request: ArgRequest { define { self.graphArgument(ArgRequest.self) } }

    var context: ArgContext { define { ArgContext() } }

    var handler: ArgHandler {
        define {
            ArgHandler(request: self.request, context: self.context, contextAgain: self.context, store: self.store)
        }
    }

    var session: ArgSession {
        get async {
            await define {
                await Task.yield()
                return ArgSession(request: self.request)
            }
        }
    }

    var checkedSession: ArgSession {
        get async throws(ArgSessionError) {
            try await define { () async throws(ArgSessionError) in
                await Task.yield()
                guard self.request.id >= 0 else { throw ArgSessionError() }
                return ArgSession(request: self.request)
            }
        }
    }

    var controller: ArgController {
        define(scope: .singleton) {
            ArgController(
                makeHandler: self.provider(\.handler, carrying: ArgRequest.self),
                makeSession: self.provider(carrying: ArgRequest.self) { assembly in await assembly.session },
                makeCheckedSession: self.provider(carrying: ArgRequest.self) {
                    (assembly) async throws(ArgSessionError) in try await assembly.checkedSession
                }
            )
        }
    }

    /// A handler built in this graph, and one a carrying provider builds from inside it.
    var handlerAndProvided: (ArgContext, ArgHandler) {
        define { (self.context, self.controller.makeHandler(ArgRequest(id: 9))) }
    }

    /// A singleton that reads the request: it would keep the first one.
    var audit: ArgRequest { define(scope: .singleton) { self.request } }

    var auditingHandler: ArgRequest { define { self.audit } }

    /// A singleton whose hook reads the request: it would keep the first one.
    var hookedAudit: ArgBox {
        define(scope: .singleton) { definition in
            definition.afterWiring { box in box.request = self.request }
            return ArgBox()
        }
    }

    var hookedHandler: ArgBox { define { self.hookedAudit } }

    var kind: ArgKind { define { self.graphArgument(ArgKind.self) } }
}

@Suite("Values a provider carries into its graph") struct GraphArgumentTests {
    @Test func eachCallOpensAGraphThatCarriesItsValue() {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.controller
        let first = controller.makeHandler(ArgRequest(id: 1))
        let second = controller.makeHandler(ArgRequest(id: 2))
        #expect(first.request == ArgRequest(id: 1))
        #expect(second.request == ArgRequest(id: 2))
        #expect(first.context === first.contextAgain, "one call, one graph")
        #expect(first.context !== second.context)
        #expect(first.store === app.store)
    }

    @Test func testsReplaceTheArgumentsDefinitionAndReadTheOthersDirectly() {
        let app = ArgServerAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.request) { ArgRequest(id: 42) }
        overrides.apply {
            #expect(app.handler.request == ArgRequest(id: 42), "read directly, with no provider")
            #expect(app.controller.makeHandler(ArgRequest(id: 1)).request == ArgRequest(id: 42))
        }
    }

    @Test func asyncProvidersCarryTheirValueAcrossSuspensions() async throws {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.controller
        #expect(await controller.makeSession(ArgRequest(id: 3)).request == ArgRequest(id: 3))
        #expect(try await controller.makeCheckedSession(ArgRequest(id: 4)).request == ArgRequest(id: 4))
        await #expect(throws: ArgSessionError()) { try await controller.makeCheckedSession(ArgRequest(id: -1)) }
        #expect(
            await controller.makeSession(ArgRequest(id: 5)).request == ArgRequest(id: 5),
            "a throw leaves nothing behind"
        )
    }

    @Test func aCallInsideAReadOpensAGraphOfItsOwn() {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        _ = app.controller
        let (context, provided) = app.handlerAndProvided
        #expect(provided.context !== context, "the provider's graph is not the body's")
        #expect(provided.request == ArgRequest(id: 9))
    }

    @Test func callsOnManyThreadsEachCarryTheirOwnValue() {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.controller
        onThreads(4) { thread in
            for index in 0..<200 {
                let id = thread * 1_000 + index
                let handler = controller.makeHandler(ArgRequest(id: id))
                #expect(handler.request.id == id)
                #expect(handler.context === handler.contextAgain)
            }
        }
    }

    @Test func concurrentTasksEachCarryTheirOwnValue() async {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.controller
        await withTaskGroup(of: Bool.self) { group in
            for id in 0..<100 {
                group.addTask { await controller.makeSession(ArgRequest(id: id)).request.id == id }
            }
            for await matched in group {
                #expect(matched)
            }
        }
    }

    @Test func anObservedFamilyReportsTheReadsOfACarryingProvider() {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.controller
        let graph = app.recordGraph { _ = controller.makeHandler(ArgRequest(id: 7)) }
        #expect(graph.mermaid.contains("ArgServerAssembly.handler"), "\(graph.mermaid)")
    }

    @Test func aValueIsReadByTheTypeTheProviderNamesNotItsOwn() {
        let app = ArgServerAssembly()
        defer { withExtendedLifetime(app) {} }
        let admin = ArgAdminKind()
        #expect(app.provider(\.kind, carrying: ArgKind.self)(admin) === admin)
    }

    @Test func aSingletonWhoseHookWouldKeepTheArgumentStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = ArgServerAssembly()
            _ = app.provider(\.hookedHandler, carrying: ArgRequest.self)(ArgRequest(id: 1))
            withExtendedLifetime(app) {}
        }
        #expect(stderr(of: result).contains("ArgServerAssembly.hookedAudit would keep a graph's argument"))
    }

    @Test func aReadOutsideACarryingGraphStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ArgServerAssembly().handler
        }
        let message = stderr(of: result)
        #expect(
            message.contains(
                "ArgServerAssembly.graphArgument(ArgRequest.self) was read, but the graph being built carries no argument"
            )
        )
        #expect(message.contains("`provider(\\.member, carrying: ArgRequest.self)`"))
    }

    @Test func aSingletonThatWouldKeepTheArgumentStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = ArgServerAssembly()
            _ = app.provider(\.auditingHandler, carrying: ArgRequest.self)(ArgRequest(id: 1))
            withExtendedLifetime(app) {}
        }
        let message = stderr(of: result)
        #expect(message.contains("ArgServerAssembly.audit would keep a graph's argument"))
        #expect(message.contains("ArgServerAssembly.audit → ArgServerAssembly.request"))
    }
}
