/// What a family does when a longer-lived instance keeps a shorter-lived shared one: a *captive
/// dependency*.
///
/// A singleton (or weak singleton, or instance of a resettable scope) whose body reads an
/// object-graph instance keeps that instance for as long as it lives, while every later graph
/// builds its own: `cache.audit` is no longer `handler.audit`. One that reads an instance of a
/// resettable scope it doesn't belong to keeps it after a reset drops it. Reading a prototype is
/// never captive — the reader owns its own copy — but what that prototype reads in turn counts as
/// read by the reader.
///
/// ```swift
/// app.checkCaptiveDependencies(.stop)   // in a test suite: make each one fail
/// ```
///
/// Checks run in debug builds of the library (`DEBUG` set when it is compiled, as in a debug build
/// of an app or a test run), where a family warns once per chain by default. Release builds check
/// nothing, whatever the mode, and their reads pay nothing for it. A check runs while a singleton
/// is being built — reads served from caches are never checked — and costs each object-graph read
/// of a debug build one compare.
public enum CaptiveDependencies: Sendable {
    /// Checks nothing.
    case ignore
    /// Writes a warning to standard error, once for each chain; the default.
    case warn
    /// Stops the program with the message.
    case stop
    /// Calls `report` for each one found, on the thread that read it, while the graph is being
    /// built and with no lock of the library held. Reads it makes run in graphs of their own.
    case report(@Sendable (CaptiveDependency) -> Void)

    /// What a family does until ``Assembly/checkCaptiveDependencies(_:)`` says otherwise: `.warn`.
    public static var `default`: CaptiveDependencies { .warn }
}

/// A longer-lived instance that keeps a shorter-lived shared one (see ``CaptiveDependencies``).
public struct CaptiveDependency: Sendable, CustomStringConvertible {
    /// The definitions from the one that keeps the instance to the one it keeps: any prototypes in
    /// between belong to the keeper.
    public let chain: [DefinitionName]
    /// The scope of the keeper (`chain.first`).
    public let keeperScope: Scope
    /// The scope of the instance kept (`chain.last`).
    public let keptScope: Scope

    /// What happened and how to fix it.
    public var description: String {
        let keeper = chain[0]
        let kept = chain[chain.count - 1]
        let lifetime =
            keptScope.kind == .objectGraph
            ? "which is shared only within one object graph: every later graph builds its own \(kept.member), but a \(keeper.member) that keeps it keeps the first one for as long as it lives"
            : "which reset drops: after a reset of \(keptScope), other readers get a new \(kept.member), but a \(keeper.member) that keeps it keeps the old one"
        return """
            captive dependency: \(keeper) (\(keeperScope)) reads \(kept) (\(keptScope)), \(lifetime). \
            Chain: \(chain.map(\.description).joined(separator: " → ")). To fix this, make \(kept) a \
            prototype (\(keeper.member) then gets its own), give it a scope that lives as long as \(keeperScope), \
            or give \(keeper.member) a provider of \(kept.member) (`self.provider`), which reads it each time it is called. If \(keeper.member) only uses it while \
            it is built, or is meant to keep it, read it with intentionallyCaptive(self.\(kept.member)).
            """
    }
}

extension Assembly {
    /// Sets what this family does when it finds a captive dependency, in debug builds: see
    /// ``CaptiveDependencies``.
    ///
    /// ```swift
    /// app.checkCaptiveDependencies(.report { captive in Issue.record("\(captive)") })
    /// ```
    public final func checkCaptiveDependencies(_ mode: CaptiveDependencies) {
        family.withCaptives { $0.mode = mode }
    }

    /// Returns what `read` reads, marked as kept on purpose by the longer-lived instance being
    /// built: it is not reported as a captive dependency.
    ///
    /// ```swift
    /// var cache: Cache {
    ///     // One audit for the cache's lifetime is what it wants.
    ///     define(scope: .singleton) { Cache(audit: self.intentionallyCaptive(self.audit)) }
    /// }
    /// ```
    ///
    /// Only the read `read` makes itself is marked, not the reads its body makes in turn.
    public final func intentionallyCaptive<T>(_ read: @autoclosure () -> T) -> T {
        Resolver.withCurrent { $0.markingIntentionalCaptive(read) }
    }

    /// Returns what `read` reads from a throwing definition, marked as kept on purpose (see
    /// ``intentionallyCaptive(_:)-(()->T)``).
    public final func intentionallyCaptive<T, E: Error>(_ read: @autoclosure () throws(E) -> T) throws(E) -> T {
        var failure: E?
        let result: T? = Resolver.withCurrent { resolver in
            resolver.markingIntentionalCaptive { () -> T? in
                do throws(E) {
                    return try read()
                } catch {
                    failure = error
                    return nil
                }
            }
        }
        if let failure { throw failure }
        return result!
    }
}
