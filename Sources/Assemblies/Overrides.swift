/// Replacements of definitions with test doubles, for the tasks that apply them.
///
/// Name a definition by key path, so that a wrong name or a double of the wrong type doesn't
/// compile, give a factory of doubles, and run the test inside ``apply(whenUnused:_:)``. While it
/// runs, every read of the family in that task — the definition itself and everything that
/// depends on it — sees the double. Production code is untouched.
///
/// ```swift
/// @Test func showsTheStubbedForecast() {
///     let app = ApplicationAssembly()
///     let overrides = Overrides(of: app)
///     overrides.replace(\.weatherClient) { StubWeatherClient() }
///
///     overrides.apply {
///         #expect(app.forecastController.client is StubWeatherClient)
///     }
///     #expect(overrides.unused.isEmpty)
/// }
/// ```
///
/// A key path can't name a member declared `get async`: name it with a closure that reads it,
/// ``replace(isolation:awaiting:scope:whenUnused:with:)``.
///
/// ## Scopes and singletons
///
/// A double is built in the scope of the definition it replaces, unless `replace` is given another.
/// While overrides apply, the task's reads of the family use singletons of their own — built
/// afresh, on the doubles — so a singleton cached before the override took effect, or built by
/// another task, is never handed out, and nothing built on a double outlives ``apply(whenUnused:_:)``.
///
/// ## Tasks
///
/// Overrides are task-local: they apply to the task that runs `apply` and to the child tasks it
/// creates, never to other tasks, so tests that run in parallel never see each other's doubles.
///
/// ## Changing and nesting
///
/// `replace` and ``remove(_:)-(KeyPath<Root,Value>)`` take effect at once, also while the overrides
/// apply: the singletons built under the overrides so far are dropped, since they may depend on
/// what changed. Applying other overrides inside `apply` layers them over these; leaving the inner
/// `apply` restores these.
///
/// ## Unused overrides
///
/// An override that no read used usually means a key path to the wrong definition. ``unused``
/// lists them, and `apply` prints one warning for each when it returns — unless it, or `replace`,
/// is told otherwise with ``UnusedOverrides``.
public final class Overrides<Root: Assembly>: Sendable {
    /// The assembly whose family the overrides replace definitions in.
    public let assembly: Root
    let table: OverrideTable

    /// Creates an empty set of overrides for the family of `assembly`.
    ///
    /// - Parameter assembly: Any assembly of the family; key paths start from it.
    public init(of assembly: Root) {
        self.assembly = assembly
        table = OverrideTable(family: assembly.family)
    }

    /// Replaces the definition that `keyPath` reads with doubles that `factory` builds.
    ///
    /// ```swift
    /// overrides.replace(\.network) { FakeNetwork() }
    /// overrides.replace(\.core.clock, scope: .prototype) { FixedClock(hour: 9) }
    /// ```
    ///
    /// The key path may pass through collaborators; its last member must be a definition. Finding
    /// out which definition that is reads it once without running its body: that read makes the
    /// first double, which the first build that needs one receives.
    ///
    /// - Parameters:
    ///   - keyPath: The property that defines the object to replace.
    ///   - scope: The scope to build doubles in; by default the original definition's.
    ///   - whenUnused: What `apply` does if no read uses this override; by default what `apply` is
    ///     told. `.ignore` for a double that some tests don't need.
    ///   - factory: Makes a double.
    public func replace<Value>(
        _ keyPath: KeyPath<Root, Value>,
        scope: Scope? = nil,
        whenUnused: UnusedOverrides? = nil,
        with factory: @escaping @Sendable () -> Value
    ) {
        let family = assembly.family
        let capture = OverrideCapture(doubles: DoubleMaker(factory))
        family.interceptCount.increment()
        Resolver.withCurrent { $0.pendingCapture = capture }
        _ = assembly[keyPath: keyPath]
        Resolver.withCurrent { $0.pendingCapture = nil }
        family.interceptCount.decrement()
        add(capture, keyPath: keyPath, scope: scope, whenUnused: whenUnused, value: Value.self)
    }

    /// Replaces the definition that the async member `member` reads with doubles that `factory`
    /// builds: the way to name a member declared `get async`, which a key path can't.
    ///
    /// ```swift
    /// await overrides.replace(awaiting: { try await $0.database }, with: { InMemoryDatabase() })
    /// ```
    ///
    /// `member` reads one member of the assembly — through collaborators, if need be — and nothing
    /// else. Finding out which definition that is reads it once without running its body: that
    /// read makes the first double, which the first build that needs one receives. Otherwise it
    /// is ``replace(_:scope:whenUnused:with:)``; the override stays for the life of these overrides.
    ///
    /// - Parameters:
    ///   - isolation: The actor `member` runs on; the caller's by default.
    ///   - member: Reads the member that defines the object to replace.
    ///   - scope: The scope to build doubles in; by default the original definition's.
    ///   - whenUnused: What `apply` does if no read uses this override; by default what `apply` is
    ///     told.
    ///   - factory: Makes a double.
    public func replace<Value>(
        isolation: isolated (any Actor)? = #isolation,
        awaiting member: (Root) async throws -> Value,
        scope: Scope? = nil,
        whenUnused: UnusedOverrides? = nil,
        with factory: @escaping @Sendable () -> Value
    ) async {
        let family = assembly.family
        let capture = OverrideCapture(doubles: DoubleMaker(factory))
        family.interceptCount.increment()
        family.everyReaderCount.increment()
        family.asyncCaptures.increment()
        _ = try? await OverrideCapture.$pending.withValue(
            capture,
            operation: { try await member(assembly) },
            isolation: isolation
        )
        family.asyncCaptures.decrement()
        family.everyReaderCount.decrement()
        family.interceptCount.decrement()
        add(capture, keyPath: nil, scope: scope, whenUnused: whenUnused, value: Value.self)
    }

    /// Adds the override of the definition `capture` found, or stops when the read found none.
    private func add<Value>(
        _ capture: OverrideCapture,
        keyPath: AnyKeyPath?,
        scope: Scope?,
        whenUnused: UnusedOverrides?,
        value: Value.Type
    ) {
        guard let (key, prebuilt) = capture.captured else { Failure.notADefinition(Root.self, Value.self) }
        table.add(
            Override(
                key: key,
                keyPath: keyPath,
                scope: scope,
                whenUnused: whenUnused,
                doubles: capture.doubles,
                prebuilt: prebuilt
            )
        )
    }

    /// Removes the replacement of the definition that `keyPath` reads.
    ///
    /// - Parameter keyPath: A key path given to ``replace(_:scope:whenUnused:with:)``.
    public func remove<Value>(_ keyPath: KeyPath<Root, Value>) {
        table.removeOverride(at: keyPath)
    }

    /// Makes the family use `substitute`, a subclass, wherever it reaches the collaborator type
    /// `original` — the way to override definitions by subclassing an assembly other than the root.
    ///
    /// ```swift
    /// class NetworkAssembly: Assembly, @unchecked Sendable { ... }
    /// final class OfflineNetworkAssembly: NetworkAssembly, @unchecked Sendable {
    ///     override var client: HTTPClient { define { OfflineClient() } }
    /// }
    ///
    /// overrides.replace(NetworkAssembly.self, with: OfflineNetworkAssembly.self)
    /// ```
    ///
    /// - Parameters:
    ///   - original: A collaborator type of the family (not the root's type).
    ///   - substitute: A subclass of `original`.
    ///   - whenUnused: What `apply` does if the family never reaches `original`; by default what
    ///     `apply` is told.
    public func replace<Original: Assembly>(
        _ original: Original.Type,
        with substitute: Original.Type,
        whenUnused: UnusedOverrides? = nil
    ) {
        table.add(substitute: substitute, for: original, whenUnused: whenUnused)
    }

    /// Removes the substitution of the collaborator type `original`.
    ///
    /// - Parameter original: A type given to ``replace(_:with:whenUnused:)``.
    public func remove<Original: Assembly>(_ original: Original.Type) {
        table.removeSubstitute(for: original)
    }

    /// The overrides no read has used yet, as `AssemblyType.member` (or the substitute's type) —
    /// every one, whatever `whenUnused` says.
    public var unused: [String] { table.unused.map(\.description) }

    /// Runs `body` with these overrides in effect for the current task and its child tasks — or,
    /// called outside any task, for this thread and the tasks `body` creates with `Task {}` (not
    /// detached ones, and not other threads).
    ///
    /// ```swift
    /// overrides.apply {
    ///     #expect(app.forecastController.client is StubWeatherClient)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - whenUnused: What to do, as it returns, with the overrides no read has used (those that
    ///     `replace` gave no `whenUnused` of their own): warn on standard error by default.
    ///   - body: The code that reads the family, a test for instance.
    /// - Returns: What `body` returns.
    public func apply<Result>(whenUnused: UnusedOverrides = .warn, _ body: () throws -> Result) rethrows -> Result {
        let context = begin()
        // Outside a task the context lives in this thread's task-locals; reads on this thread look for
        // it while the count says one may be there (see `OverrideContext.innermost(for:)`).
        let thread = Resolver.withCurrent { $0.thread }
        thread.synchronousApplies += 1
        defer {
            thread.synchronousApplies -= 1
            end(whenUnused: whenUnused)
        }
        return try OverrideContext.$current.withValue(context) { try body() }
    }

    /// Runs `body` with these overrides in effect for the current task and its child tasks.
    ///
    /// - Parameters:
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - whenUnused: What to do, as it returns, with the overrides no read has used (those that
    ///     `replace` gave no `whenUnused` of their own): warn on standard error by default.
    ///   - body: The code that reads the family, a test for instance.
    /// - Returns: What `body` returns.
    public func apply<Result>(
        isolation: isolated (any Actor)? = #isolation,
        whenUnused: UnusedOverrides = .warn,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        let context = begin()
        defer { end(whenUnused: whenUnused) }
        return try await OverrideContext.$current.withValue(context, operation: body, isolation: isolation)
    }

    private func begin() -> OverrideContext {
        assembly.family.interceptCount.increment()
        return OverrideContext(table: table, parent: OverrideContext.current)
    }

    private func end(whenUnused: UnusedOverrides) {
        assembly.family.interceptCount.decrement()
        var reported: [String] = []
        for (description, own) in table.unused {
            switch own ?? whenUnused {
            case .warn:
                WarningOutput.write(
                    "the override of \(description) was never used. Check that it names a definition (or "
                        + "collaborator type) your code reads, or remove it."
                )
            case .ignore:
                break
            case .report(let report) where own != nil:
                report([description])
            case .report:
                reported.append(description)
            }
        }
        if case .report(let report) = whenUnused, !reported.isEmpty {
            report(reported)
        }
    }
}
