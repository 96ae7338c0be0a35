/// How long an instance built by a definition lives and who shares it.
///
/// Pass a scope to ``Assembly/define(withKey:scope:function:_:)-(_,_,_,(Definition<T>)->T)``:
///
/// ```swift
/// final class CastleAssembly: Assembly, @unchecked Sendable {
///     var horse: Horse { define(scope: .prototype) { Horse() } }     // new on every read
///     var knight: Knight { define { Knight() } }                      // .objectGraph: one per graph
///     var castle: Castle { define(scope: .singleton) { Castle() } }  // one per family, lazily
/// }
/// ```
///
/// - ``prototype``: a new instance on every read.
/// - ``objectGraph`` (the default): one instance per definition within one top-level resolution,
///   so everything built by one read of a property shares it; the next top-level read builds a new
///   one, and the assembly keeps nothing afterwards.
/// - ``singleton``: one instance per definition for the whole family of assemblies, built lazily on
///   first read, exactly once, even when many threads read it at once.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: UInt8, Sendable {
        case prototype
        case objectGraph
        case singleton
    }

    @usableFromInline
    let kind: Kind

    @inlinable
    init(_ kind: Kind) {
        self.kind = kind
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
    /// its body runs: a singleton is wired once and never re-wired. No other thread sees a singleton
    /// before the graph that built it has closed.
    @inlinable
    public static var singleton: Scope { Scope(.singleton) }

    /// Whether instances are shared (object graph and singleton) rather than built on every read.
    @inlinable
    var isShared: Bool { kind != .prototype }

    public var description: String {
        switch kind {
        case .prototype: "prototype"
        case .objectGraph: "objectGraph"
        case .singleton: "singleton"
        }
    }
}
