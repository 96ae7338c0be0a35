import Assemblies
import Foundation

extension Scope {
    /// What belongs to the signed-in user: built on first read, dropped by `reset(.session)`.
    static let session = Scope.resettable("session")
}

final class Account: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

/// The signed-in user's session, which the app swaps when the user changes.
final class CurrentUser: @unchecked Sendable {
    // @unchecked: `name` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storedName = "guest"

    var name: String {
        get { lock.withLock { storedName } }
        set { lock.withLock { storedName = newValue } }
    }
}

final class Cart: Disposable {
    let account: Account
    private(set) var items: [String] = []

    init(account: Account) { self.account = account }

    func add(_ item: String) { items.append(item) }

    func dispose() { print("saved the cart of \(account.name): \(items.joined(separator: ", "))") }
}

final class ShopAssembly: Assembly, @unchecked Sendable {
    /// Who is signed in: state the family shares, so a singleton, not a stored property.
    var currentUser: CurrentUser { define(scope: .singleton) { CurrentUser() } }

    var account: Account { define(scope: .session) { Account(name: self.currentUser.name) } }

    var cart: Cart { define(scope: .session) { Cart(account: self.account) } }

    func signIn(as name: String) {
        reset(.session)  // disposes of the previous user's instances, the cart first
        currentUser.name = name
    }
}
