import Assemblies
import Foundation
import Testing

private final class ProviderStore: Sendable {}

private class ProviderContext {}

private final class ProviderRequest {
    let store: ProviderStore
    let context: ProviderContext
    let contextAgain: ProviderContext

    init(store: ProviderStore, context: ProviderContext, contextAgain: ProviderContext) {
        self.store = store
        self.context = context
        self.contextAgain = contextAgain
    }
}

private final class ProviderHandler {
    let route: String
    let request: ProviderRequest

    init(route: String, request: ProviderRequest) {
        self.route = route
        self.request = request
    }
}

private final class ProviderSession {
    let user: String
    let store: ProviderStore

    init(user: String, store: ProviderStore) {
        self.user = user
        self.store = store
    }
}

private struct ProviderRouteError: Error, Equatable {
    let route: String
}

/// A long-lived object that needs new graphs: it keeps providers, never an assembly.
private final class ProviderController: Sendable {
    let makeRequest: @Sendable () -> ProviderRequest
    let makeHandler: @Sendable (String) -> ProviderHandler
    let makeCheckedHandler: @Sendable (String) throws(ProviderRouteError) -> ProviderHandler
    let makeSession: @Sendable (String) async -> ProviderSession

    init(
        makeRequest: @escaping @Sendable () -> ProviderRequest,
        makeHandler: @escaping @Sendable (String) -> ProviderHandler,
        makeCheckedHandler: @escaping @Sendable (String) throws(ProviderRouteError) -> ProviderHandler,
        makeSession: @escaping @Sendable (String) async -> ProviderSession
    ) {
        self.makeRequest = makeRequest
        self.makeHandler = makeHandler
        self.makeCheckedHandler = makeCheckedHandler
        self.makeSession = makeSession
    }
}

private class ProviderAppAssembly: Assembly, @unchecked Sendable {
    var requests: ProviderRequestAssembly { collaborator() }

    var store: ProviderStore { define(scope: .singleton) { ProviderStore() } }
}

private final class ProviderTestAppAssembly: ProviderAppAssembly, @unchecked Sendable {}

private class ProviderRequestAssembly: Assembly, @unchecked Sendable {
    var app: ProviderAppAssembly { collaborator() }

    var controller: ProviderController {
        define(scope: .singleton) {
            ProviderController(
                makeRequest: self.provider(\.request),
                makeHandler: self.provider { assembly, route in assembly.handler(for: route) },
                makeCheckedHandler: self.provider { (assembly, route: String) throws(ProviderRouteError) in
                    try assembly.checkedHandler(for: route)
                },
                makeSession: self.provider { assembly, user in await assembly.session(for: user) }
            )
        }
    }

    var request: ProviderRequest {
        define { ProviderRequest(store: self.app.store, context: self.context, contextAgain: self.context) }
    }

    var context: ProviderContext { define { ProviderContext() } }

    func handler(for route: String) -> ProviderHandler {
        define(arguments: route) { ProviderHandler(route: route, request: self.request) }
    }

    func checkedHandler(for route: String) throws(ProviderRouteError) -> ProviderHandler {
        try define(arguments: route) { () throws(ProviderRouteError) in
            guard route.hasPrefix("/") else { throw ProviderRouteError(route: route) }
            return ProviderHandler(route: route, request: self.request)
        }
    }

    func session(for user: String) async -> ProviderSession {
        await define(arguments: user) {
            await Task.yield()
            return ProviderSession(user: user, store: self.app.store)
        }
    }

    /// Reads a provider's member inside a graph of its own: the provider reads where it is called.
    var requestAndProvided: (ProviderRequest, ProviderRequest, ProviderContext) {
        define { (self.request, self.controller.makeRequest(), self.context) }
    }
}

private final class ProviderFakeContext: ProviderContext {}

private final class ProviderOfflineRequestAssembly: ProviderRequestAssembly, @unchecked Sendable {
    override var context: ProviderContext { define { ProviderFakeContext() } }
}

@Suite struct ProviderTests {
    // MARK: Reading

    @Test func eachCallOfAPropertyProviderIsANewObjectGraph() {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        let first = controller.makeRequest()
        let second = controller.makeRequest()
        #expect(first !== second)
        #expect(first.context === first.contextAgain, "one call is one graph")
        #expect(first.context !== second.context, "each call is a graph of its own")
        #expect(first.store === app.store, "singletons are the family's")
        #expect(second.store === app.store)
    }

    @Test func aMethodProviderPassesTheCallsArguments() {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        let notes = controller.makeHandler("/notes")
        let users = controller.makeHandler("/users")
        #expect(notes.route == "/notes")
        #expect(users.route == "/users")
        #expect(notes !== controller.makeHandler("/notes"), "each call is a new graph")
        #expect(notes.request.store === app.store)
    }

    @Test func aThrowingProviderThrowsTheReadsErrorWithItsType() throws {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        #expect(try controller.makeCheckedHandler("/notes").route == "/notes")
        do {
            _ = try controller.makeCheckedHandler("notes")
            Issue.record("the read should have thrown")
        } catch {
            #expect(error == ProviderRouteError(route: "notes"))
        }
        #expect(try controller.makeCheckedHandler("/users").route == "/users", "a throw leaves nothing behind")
    }

    @Test func anAsyncProviderReadsAsyncMembers() async {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        let ada = await controller.makeSession("ada")
        let bob = await controller.makeSession("bob")
        #expect(ada.user == "ada")
        #expect(bob.user == "bob")
        #expect(ada.store === app.store)
        #expect(ada !== (await controller.makeSession("ada")))
    }

    @Test func aProviderCalledInsideABodyReadsAsTheMemberWouldThere() {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let requests = app.requests
        _ = requests.controller
        let (request, provided, context) = requests.requestAndProvided
        #expect(provided === request, "an object-graph member read twice in one graph is one instance")
        #expect(provided.context === context, "the provider's read joined the body's graph")
        #expect(request.context === context)
    }

    @Test func callsOnManyThreadsEachGetTheirOwnGraph() {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        let store = app.store
        let requests = Guarded<[ObjectIdentifier]>([])
        onThreads(4) { _ in
            for _ in 0..<200 {
                let request = controller.makeRequest()
                #expect(request.store === store)
                #expect(request.context === request.contextAgain)
                requests.withLock { $0.append(ObjectIdentifier(request.context)) }
            }
        }
        #expect(requests.withLock { $0.count } == 800)
    }

    // MARK: Overrides

    @Test func overridesTheCallingTaskAppliesReplaceWhatAProviderReads() {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        let production = controller.makeRequest().store
        let overrides = Overrides(of: app)
        let fake = ProviderStore()
        overrides.replace(\.store) { fake }
        overrides.apply {
            #expect(controller.makeRequest().store === fake)
            #expect(controller.makeHandler("/notes").request.store === fake)
        }
        #expect(controller.makeRequest().store === production)
    }

    @Test func aSubstitutedAssemblyIsWhatAProviderReadsFrom() {
        let app = ProviderAppAssembly()
        defer { withExtendedLifetime(app) {} }
        let controller = app.requests.controller
        let overrides = Overrides(of: app)
        overrides.replace(ProviderRequestAssembly.self, with: ProviderOfflineRequestAssembly.self)
        overrides.apply {
            #expect(controller.makeRequest().context is ProviderFakeContext)
        }
        #expect(!(controller.makeRequest().context is ProviderFakeContext))
    }

    // MARK: Lifetime

    @Test func aSingletonThatHoldsProvidersDoesntKeepItsFamilyAlive() async {
        weak var root: ProviderAppAssembly?
        weak var requests: ProviderRequestAssembly?
        weak var controller: ProviderController?
        weak var store: ProviderStore?
        do {
            let app = ProviderAppAssembly()
            let built = app.requests.controller
            _ = built.makeRequest()
            _ = built.makeHandler("/notes")
            _ = await built.makeSession("ada")
            root = app
            requests = app.requests
            controller = built
            store = app.store
            #expect(root != nil && controller != nil && store != nil)
        }
        #expect(root == nil, "the root is released")
        #expect(requests == nil, "and its collaborators")
        #expect(controller == nil, "and the singleton that holds providers")
        #expect(store == nil, "and every other singleton")
    }

    @Test func aProviderCalledAfterItsRootWasReleasedStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            var makeRequest: (@Sendable () -> ProviderRequest)?
            do {
                let app = ProviderTestAppAssembly()
                makeRequest = app.requests.controller.makeRequest
                withExtendedLifetime(app) {}
            }
            _ = makeRequest?()
        }
        let message = stderr(of: result)
        #expect(message.contains("a provider made by ProviderRequestAssembly (AssembliesTests/ProviderTests.swift:"))
        #expect(message.contains("was called after the root of its family, ProviderTestAppAssembly, was released"))
        #expect(message.contains("keep the ProviderTestAppAssembly you created"))
    }

    @Test func aProviderWhoseAssemblyOutlivesTheRootStillStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            var requests: ProviderRequestAssembly?
            do {
                requests = ProviderAppAssembly().requests
            }
            // The collaborator is alive, and holds the family: the root is gone all the same.
            _ = requests.map { $0.provider(\.context)() }
        }
        let message = stderr(of: result)
        #expect(message.contains("the root of its family, ProviderAppAssembly, was released"))
    }
}
