import Assemblies

// The code of the article *Choosing a Scope*: its blocks, verbatim, each in a scope of its own.

do {
    let assembly = CastleAssembly()
    let knight = assembly.knight
    print(assembly.knight === knight)  // false: a new graph, a new knight

    print(assembly.horse === assembly.horse)  // false
}

do {
    final class ApplicationAssembly: Assembly, @unchecked Sendable {
        var core: CoreAssembly { collaborator() }

        var database: Database { define(scope: .singleton) { Database(path: "app.sqlite") } }
        var analytics: Analytics { define(scope: .singleton) { Analytics(database: self.database) } }

        override func buildEagerSingletons() {
            _ = database  // built first
            _ = analytics  // then this one, which finds the database built
            core.buildEagerSingletons()  // a collaborator's own list
        }
    }

    let app = ApplicationAssembly()
    app.activate()  // the eager singletons exist from here on
    print("eager singletons built:", app.analytics.database === app.database)
}

do {
    final class EditorAssembly: Assembly, @unchecked Sendable {
        var document: Document { define(scope: .weakSingleton) { Document() } }
    }

    let assembly = EditorAssembly()
    var window: Document? = assembly.document
    print(assembly.document === window)  // true: the window keeps it alive
    window = nil  // the last strong reference is gone
    _ = assembly.document  // a new Document
}

extension Scope {
    static let session = Scope.resettable("session")
}

final class Session: Disposable {
    let user: User
    init(user: User) { self.user = user }

    func dispose() {
        // revoke the user's tokens, close the session's sockets
    }
}

final class AccountAssembly: Assembly, @unchecked Sendable {
    var user: User { define(scope: .session) { User.loggedIn() } }
    var session: Session { define(scope: .session) { Session(user: self.user) } }
    var cart: Cart { define(scope: .session) { Cart(session: self.session) } }
}

let account = AccountAssembly()
let cart = account.cart
account.reset(.session)  // the user logged out
print(account.cart === cart)  // false: a new cart, on a new session

let services = TunedServicesAssembly()
print("tuned:", services.service.isTuned, services.service === services.service)
let named = NamedKnightsAssembly()
print("named:", named.knight(named: "Galahad").name)
