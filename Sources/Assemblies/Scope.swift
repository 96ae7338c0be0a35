/// How long an instance built by a definition lives and who shares it.
///
/// Pass a scope to ``Assembly/define(withKey:scope:function:file:line:_:)-8ozsy``:
///
/// ```swift
/// final class CastleAssembly: Assembly, @unchecked Sendable {
///     var horse: Horse { define(scope: .prototype) { Horse() } }          // new on every read
///     var knight: Knight { define { Knight() } }                           // .objectGraph: one per graph
///     var castle: Castle { define(scope: .singleton) { Castle() } }       // one per family, lazily
///     var map: Map { define(scope: .weakSingleton) { Map() } }            // shared while held outside
///     var guest: Guest { define(scope: .session) { Guest() } }            // until `reset(.session)`
/// }
///
/// extension Scope {
///     static let session = Scope.resettable("session")
/// }
/// ```
///
/// - ``prototype``: a new instance on every read.
/// - ``objectGraph`` (the default): one instance per definition within one top-level resolution,
///   so everything built by one read of a property shares it; the next top-level read builds a new
///   one, and the assembly keeps nothing afterwards.
/// - ``singleton``: one instance per definition for the whole family of assemblies, built lazily on
///   first read, exactly once, even when many threads read it at once.
/// - ``weakSingleton``: like a singleton while anything outside the framework holds the instance;
///   once it has been released, the next read builds a new one.
/// - ``resettable(_:)``: a scope you name, such as a session: like a singleton until
///   ``Assembly/reset(_:)`` drops its instances.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case prototype
        case objectGraph
        case singleton
        case weakSingleton
        case resettable
    }

    @usableFromInline
    let kind: Kind

    /// The number of a resettable scope's name (see ``ScopeNames``), or 0. A number rather than the
    /// name keeps a scope one word wide on the read path.
    @usableFromInline
    let nameID: UInt32

    @inlinable
    init(_ kind: Kind, nameID: UInt32 = 0) {
        self.kind = kind
        self.nameID = nameID
    }

    /// A new instance on every read.
    ///
    /// A prototype read at top level still opens an object graph for its dependencies. While a
    /// prototype is being wired, a read that comes straight back from one of its direct dependencies
    /// (a back-reference such as `presenter.view`) gets the instance being wired; every other read
    /// builds a new one.
    @inlinable
    public static var prototype: Scope { Scope(.prototype) }

    /// One instance per definition within one top-level resolution (the default).
    ///
    /// Every object built while a top-level read runs shares the instance, which is how circular
    /// dependencies close (`knight.quest.knight === knight`). The next top-level read starts a new
    /// graph, and nothing of the old one is retained by the assembly.
    @inlinable
    public static var objectGraph: Scope { Scope(.objectGraph) }

    /// One instance per definition for a whole family of assemblies, built lazily on first read.
    ///
    /// The body runs exactly once, even under contention, and a cached singleton is returned before
    /// its body runs: a singleton is wired once and never re-wired. Other threads that read it
    /// meanwhile wait for it alone, and see it once it is whole: when its body and hooks have
    /// returned and nothing it may point at is still being wired (see <doc:ThreadSafety>). To build
    /// singletons when the program starts rather than on first read, list them in
    /// ``Assembly/buildEagerSingletons()``.
    @inlinable
    public static var singleton: Scope { Scope(.singleton) }

    /// One instance per definition for a whole family while something outside the framework holds
    /// it; after the last outside reference is released, the next read builds a fresh instance.
    ///
    /// The family holds the instance weakly. While a graph that built it is resolving, the graph
    /// holds it, so a weak singleton that only the graph refers to stays alive until that
    /// resolution returns. Instances must be objects (a class, or a protocol that only classes
    /// adopt); a value type stops the program.
    ///
    /// ```swift
    /// var editor: Editor { define(scope: .weakSingleton) { Editor() } }
    ///
    /// var first = assembly.editor
    /// assembly.editor === first   // true: `first` keeps it alive
    /// first = Editor()            // released
    /// assembly.editor             // a new Editor, with fresh state
    /// ```
    @inlinable
    public static var weakSingleton: Scope { Scope(.weakSingleton) }

    /// A scope of your own, such as a session or a user login: one instance per definition for the
    /// whole family, like a singleton, until ``Assembly/reset(_:)`` drops the scope's instances so
    /// that the next read builds new ones.
    ///
    /// Two scopes with the same name are the same scope; make each one once, as a static constant.
    /// Resetting one leaves every other scope alone, and calls ``Disposable/dispose()`` on the
    /// dropped instances that adopt ``Disposable``, the most recently built first.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope.resettable("session")
    /// }
    ///
    /// var cart: Cart { define(scope: .session) { Cart(user: self.user) } }
    ///
    /// assembly.reset(.session)   // the next read of `cart` builds a new Cart
    /// ```
    ///
    /// - Parameter name: The scope's name, shown in messages.
    /// - Returns: The scope named `name`.
    public static func resettable(_ name: StaticString) -> Scope {
        Scope(.resettable, nameID: ScopeNames.number(of: name.description))
    }

    /// The scope as it is written after a dot: `singleton`, or `resettable("session")`.
    public var description: String {
        switch kind {
        case .prototype: "prototype"
        case .objectGraph: "objectGraph"
        case .singleton: "singleton"
        case .weakSingleton: "weakSingleton"
        case .resettable: "resettable(\"\(ScopeNames.name(numbered: nameID))\")"
        }
    }
}
