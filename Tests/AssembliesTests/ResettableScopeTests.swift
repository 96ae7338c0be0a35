import Assemblies
import Testing

extension Scope {
    fileprivate static let resetSession = Scope.resettable("reset-session")
    fileprivate static let resetPreferences = Scope.resettable("reset-preferences")
}

/// What happened to a family's instances, in order.
private final class ResetLog: @unchecked Sendable {
    // @unchecked: `recorded` is only touched while holding `lock`.
    private let lock = NSLockish()
    private var recorded: [String] = []

    func append(_ entry: String) {
        lock.withLock { recorded.append(entry) }
    }

    var entries: [String] { lock.withLock { recorded } }
}

private final class ResetUser: Disposable {
    let log: ResetLog
    init(log: ResetLog) { self.log = log }
    func dispose() { log.append("dispose user") }
}

private final class ResetCart: Disposable {
    let log: ResetLog
    let user: ResetUser
    init(log: ResetLog, user: ResetUser) {
        self.log = log
        self.user = user
    }
    func dispose() { log.append("dispose cart") }
}

private final class ResetWallet: Disposable {
    let log: ResetLog
    init(log: ResetLog) { self.log = log }
    func dispose() { log.append("dispose wallet") }
}

/// Has a `dispose()` method but doesn't adopt `Disposable`.
private final class ResetToken {
    let log: ResetLog
    init(log: ResetLog) { self.log = log }
    func dispose() { log.append("dispose token") }
}

private final class ResetPreferences {}
private final class ResetCatalog {}

private final class ResetAppAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let log = ResetLog()

    var shop: ResetShopAssembly { collaborator() }

    var user: ResetUser {
        define(scope: .resetSession) {
            counter.tick()
            return ResetUser(log: log)
        }
    }

    var cart: ResetCart {
        define(scope: .resetSession) {
            counter.tick()
            return ResetCart(log: log, user: self.user)
        }
    }

    var wallet: ResetWallet {
        define(scope: .resetSession) {
            counter.tick()
            return ResetWallet(log: log)
        }
    }

    var token: ResetToken {
        define(scope: .resetSession) {
            counter.tick()
            return ResetToken(log: log)
        }
    }

    /// The same scope as `.resetSession`, made from the same name.
    var badge: ResetToken {
        define(scope: .resettable("reset-session")) {
            counter.tick()
            return ResetToken(log: log)
        }
    }

    var preferences: ResetPreferences {
        define(scope: .resetPreferences) {
            counter.tick()
            return ResetPreferences()
        }
    }

    var catalog: ResetCatalog {
        define(scope: .singleton) {
            counter.tick()
            return ResetCatalog()
        }
    }
}

/// Holds what a body read before it reset the scope.
private final class ResetHolder {
    var cart: ResetCart?
    var back: ResetBackReference?
}

/// A session instance that points back at an object-graph instance still being wired.
private final class ResetBackReference: Disposable {
    let log: ResetLog
    let holder: ResetHolder
    init(log: ResetLog, holder: ResetHolder) {
        self.log = log
        self.holder = holder
    }
    func dispose() { log.append("dispose back") }
}

/// Resets the session from inside definition bodies, hooks and `dispose()`.
private final class ResetInsideAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let log = ResetLog()

    var user: ResetUser {
        define(scope: .resetSession) {
            counter.tick()
            return ResetUser(log: log)
        }
    }

    var cart: ResetCart {
        define(scope: .resetSession) {
            counter.tick()
            return ResetCart(log: log, user: self.user)
        }
    }

    /// Reads the session, then resets it: what this graph built is dropped and disposed.
    var signOut: ResetHolder {
        define {
            let holder = ResetHolder()
            holder.cart = self.cart
            self.reset(.resetSession)
            return holder
        }
    }

    /// Resets the session while an instance of it waits for this holder to be finished.
    var signOutWhileWiring: ResetHolder {
        define { definition in
            let holder = definition *~> ResetHolder()
            holder.back = self.back
            self.reset(.resetSession)
            return holder
        }
    }

    var back: ResetBackReference {
        define(scope: .resetSession) {
            counter.tick()
            // The holder being wired, kept on purpose.
            return ResetBackReference(log: log, holder: self.intentionallyCaptive(self.signOutWhileWiring))
        }
    }

    /// Resets its own scope while it is being built.
    var selfResetting: ResetCart {
        define(scope: .resetSession) {
            counter.tick()
            let cart = ResetCart(log: log, user: self.user)
            self.reset(.resetSession)
            return cart
        }
    }

    /// Resets the session from a hook.
    var resetInHook: ResetHolder {
        define { definition in
            definition.afterWiring { _ in self.reset(.resetSession) }
            let holder = ResetHolder()
            holder.cart = self.cart
            return holder
        }
    }
}

/// Resets its family's session when disposed.
private final class ResetChain: Disposable {
    let assembly: ResetChainAssembly
    init(assembly: ResetChainAssembly) { self.assembly = assembly }
    func dispose() {
        assembly.counter.tick("dispose")
        _ = assembly.other
        assembly.reset(.resetSession)
    }
}

private final class ResetChainAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    var link: ResetChain { define(scope: .resetSession) { ResetChain(assembly: self) } }
    var other: ResetCatalog { define(scope: .resetSession) { ResetCatalog() } }
}

private final class ResetShopAssembly: Assembly, @unchecked Sendable {
    var app: ResetAppAssembly { collaborator() }

    var basket: ResetCart {
        define(scope: .resetSession) { ResetCart(log: app.log, user: app.user) }
    }
}

@Suite struct ResettableScopeTests {
    @Test func isLikeASingletonUntilReset() {
        let app = ResetAppAssembly()
        let user = app.user
        #expect(app.user === user)
        #expect(app.cart.user === user)
        #expect(app.shop.app.user === user)
        #expect(app.counter["user"] == 1)
        #expect(app.cart === app.cart)
        #expect(app.counter["cart"] == 1)
    }

    @Test func isSharedByEveryAssemblyOfTheFamily() {
        let app = ResetAppAssembly()
        let basket = app.shop.basket
        #expect(basket.user === app.user)
        #expect(app.shop.basket === basket)
        #expect(app.counter["user"] == 1)
    }

    @Test func resetDropsTheScopesInstancesSoTheNextReadBuildsNewOnes() {
        let app = ResetAppAssembly()
        let user = app.user
        let cart = app.cart
        app.reset(.resetSession)
        let newUser = app.user
        let newCart = app.cart
        #expect(newUser !== user)
        #expect(newCart !== cart)
        #expect(newCart.user === newUser)
        #expect(cart.user === user)
        #expect(app.counter["user"] == 2)
        #expect(app.counter["cart"] == 2)
        #expect(app.user === newUser)
        #expect(app.counter["user"] == 2)
    }

    @Test func resetReleasesTheDroppedInstances() {
        let app = ResetAppAssembly()
        weak var released: ResetUser?
        do {
            let user = app.user
            released = user
        }
        #expect(released != nil)
        app.reset(.resetSession)
        #expect(released == nil)
    }

    @Test func resetLeavesOtherScopesAlone() {
        let app = ResetAppAssembly()
        let user = app.user
        let preferences = app.preferences
        let catalog = app.catalog
        app.reset(.resetSession)
        #expect(app.user !== user)
        #expect(app.preferences === preferences)
        #expect(app.catalog === catalog)
        #expect(app.counter["preferences"] == 1)
        #expect(app.counter["catalog"] == 1)
        app.reset(.resetPreferences)
        #expect(app.preferences !== preferences)
        #expect(app.catalog === catalog)
        #expect(app.counter["preferences"] == 2)
        #expect(app.counter["catalog"] == 1)
        #expect(app.counter["user"] == 2)
    }

    @Test func scopesWithTheSameNameAreTheSameScope() {
        let app = ResetAppAssembly()
        let badge = app.badge
        #expect(app.badge === badge)
        app.reset(.resetSession)
        #expect(app.badge !== badge)
        #expect(app.counter["badge"] == 2)
    }

    @Test func resetFromACollaboratorResetsTheFamily() {
        let app = ResetAppAssembly()
        let user = app.user
        app.shop.reset(.resetSession)
        #expect(app.user !== user)
        #expect(app.counter["user"] == 2)
    }

    @Test func disposesTheDroppedInstancesMostRecentlyBuiltFirst() {
        let app = ResetAppAssembly()
        _ = app.wallet
        _ = app.cart  // builds the user first, then the cart
        _ = app.token
        #expect(app.log.entries.isEmpty)
        app.reset(.resetSession)
        #expect(app.log.entries == ["dispose cart", "dispose user", "dispose wallet"])
    }

    @Test func doesNotDisposeInstancesThatDoNotAdoptDisposable() {
        let app = ResetAppAssembly()
        _ = app.token
        _ = app.badge
        app.reset(.resetSession)
        #expect(!app.log.entries.contains("dispose token"))
        #expect(app.log.entries.isEmpty)
    }

    @Test func disposesEachInstanceOnce() {
        let app = ResetAppAssembly()
        _ = app.user
        app.reset(.resetSession)
        app.reset(.resetSession)
        #expect(app.log.entries == ["dispose user"])
        _ = app.user
        app.reset(.resetSession)
        #expect(app.log.entries == ["dispose user", "dispose user"])
    }

    @Test func resetDisposesNothingOfOtherScopes() {
        let app = ResetAppAssembly()
        _ = app.user
        app.reset(.resetPreferences)
        #expect(app.log.entries.isEmpty)
    }

    @Test func belongsToOneFamily() {
        let first = ResetAppAssembly()
        let second = ResetAppAssembly()
        let firstUser = first.user
        let secondUser = second.user
        #expect(firstUser !== secondUser)
        first.reset(.resetSession)
        #expect(first.user !== firstUser)
        #expect(second.user === secondUser)
        #expect(first.log.entries == ["dispose user"])
        #expect(second.log.entries.isEmpty)
    }

    @Test func resettingAScopeThatIsNotResettableStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ResetAppAssembly().reset(.singleton)
        }
        let message = stderr(of: result)
        #expect(message.contains("reset(.singleton) was called, but only a resettable scope can be reset"))
        #expect(message.contains("To fix this, define the instances with a scope made by `Scope.resettable(\"name\")`"))
    }

    @Test func resetInsideABodyDropsAndDisposesWhatItsGraphBuilt() {
        let assembly = ResetInsideAssembly()
        let holder = assembly.signOut
        #expect(assembly.log.entries == ["dispose cart", "dispose user"])
        #expect(assembly.cart !== holder.cart)
        #expect(assembly.counter["cart"] == 2)
    }

    @Test func resetInsideABodyDropsAnInstanceWaitingForItsGraph() {
        let assembly = ResetInsideAssembly()
        let holder = assembly.signOutWhileWiring
        #expect(holder.back?.holder === holder)
        #expect(assembly.log.entries == ["dispose back"])
        let again = assembly.signOutWhileWiring
        #expect(again.back !== holder.back)
        #expect(assembly.counter["back"] == 2)
        #expect(assembly.log.entries == ["dispose back", "dispose back"])
    }

    @Test func resetInsideTheBodyOfAnInstanceOfTheScopeDropsItToo() {
        let assembly = ResetInsideAssembly()
        let cart = assembly.selfResetting
        #expect(assembly.log.entries == ["dispose user", "dispose cart"])
        #expect(assembly.selfResetting !== cart)
    }

    @Test func resetInAHookDropsAndDisposesWhatItsGraphBuilt() {
        let assembly = ResetInsideAssembly()
        let holder = assembly.resetInHook
        #expect(assembly.log.entries == ["dispose cart", "dispose user"])
        #expect(assembly.cart !== holder.cart)
    }

    @Test func disposeMayReadTheFamilyAndResetAgain() {
        let assembly = ResetChainAssembly()
        _ = assembly.link
        #expect(finishes { assembly.reset(.resetSession) })
        #expect(assembly.counter["dispose"] == 1)
    }
}
