/// One application of ``Overrides`` in a task: which definitions it replaces, and the singletons and
/// substituted assemblies that exist only while it applies.
///
/// Contexts are task-local, so parallel tests never see each other's. A context nested in another
/// of the same family layers its overrides over the outer one's, and has singletons of its own:
/// a singleton built on an outer double may depend on what the inner context replaces.
@usableFromInline
final class OverrideContext: Sendable {
    @TaskLocal static var current: OverrideContext?

    let table: OverrideTable
    let parent: OverrideContext?
    /// The singletons, weak singletons and resettable instances of this context, and the version of
    /// its overrides they were built with.
    private let store = Locked<(version: Int, singletons: SingletonStore)>((0, SingletonStore()))
    private let assemblies = Locked<[ObjectIdentifier: Assembly]>([:])

    init(table: OverrideTable, parent: OverrideContext?) {
        self.table = table
        self.parent = parent
    }

    /// The singletons, weak singletons and resettable instances of this context: new ones once its
    /// overrides (or an outer context's) have changed, because those built before may depend on
    /// what changed.
    func singletons() -> SingletonStore {
        let version = layers.reduce(0) { $0 + $1.version }
        let (current, replaced) = store.withLock { store -> (SingletonStore, SingletonStore?) in
            guard store.version != version else { return (store.singletons, nil) }
            let replaced = store.singletons
            store = (version, SingletonStore())
            return (store.singletons, replaced)
        }
        // Released here, outside the lock: its singletons' deinit may read the family again.
        _ = replaced
        return current
    }

    /// The current task's innermost context for `family`, if any.
    ///
    /// Outside a task, a context exists only where a synchronous ``Overrides/apply(whenUnused:_:)``
    /// is open on this thread (``ResolverThread/synchronousApplies``): every other thread's reads
    /// skip the task-local lookup, so overrides that a task applies cost them nothing.
    @usableFromInline
    static func innermost(for family: Family) -> OverrideContext? {
        guard TaskIdentity.isRunning || Resolver.withExisting({ $0.thread.synchronousApplies }) ?? 0 != 0 else {
            return nil
        }
        return lookUp(for: family)
    }

    /// The current task's innermost context for `family`, if any, looked up whatever the thread.
    static func lookUp(for family: Family) -> OverrideContext? {
        var context = current
        while let candidate = context {
            if candidate.table.family === family { return candidate }
            context = candidate.parent
        }
        return nil
    }

    /// This context's and the outer contexts' (of the same family) contexts, innermost first.
    private var layers: some Sequence<OverrideTable> {
        sequence(first: self, next: \.parent).lazy.filter { $0.table.family === self.table.family }.map(\.table)
    }

    /// The override of the definition `key`, innermost first; marks it used.
    @usableFromInline
    func override(for key: DefinitionKey) -> Override? {
        for table in layers {
            if let override = table.override(for: key) { return override }
        }
        return nil
    }

    /// The subclass that replaces the collaborator type `type`, if any.
    func substitute(for type: Assembly.Type) -> Assembly.Type? {
        for table in layers {
            if let substitute = table.substitute(for: type) { return substitute }
        }
        return nil
    }

    /// This context's instance of the substituted assembly type `type`, made on first use.
    func assembly(of type: Assembly.Type, in family: Family) -> Assembly {
        if let found = assemblies.withLock({ $0[ObjectIdentifier(type)] }) { return found }
        let made = Resolver.withCurrent { $0.makeAssembly(type, in: family) }
        return assemblies.withLock { assemblies in
            if let raced = assemblies[ObjectIdentifier(type)] { return raced }
            assemblies[ObjectIdentifier(type)] = made
            return made
        }
    }
}

/// The overrides of one ``Overrides`` value, without its root type.
final class OverrideTable: Sendable {
    let family: Family
    private let state = Locked(State())

    private struct State {
        /// Counts changes, so that contexts drop singletons built before one.
        var version = 0
        var overrides: [Override] = []
        var substitutes: [Substitute] = []
    }

    private struct Substitute {
        let original: ObjectIdentifier
        let substitute: Assembly.Type
        let whenUnused: UnusedOverrides?
        var isUsed = false
    }

    init(family: Family) {
        self.family = family
    }

    // What a change removes is released after the lock is let go: a double's `deinit` may read the
    // family again.

    func add(_ override: Override) {
        let removed = state.withLock { state in
            defer { state.version += 1 }
            let removed = state.overrides.filter { $0.key == override.key }
            state.overrides.removeAll { $0.key == override.key }
            state.overrides.append(override)
            return removed
        }
        _ = removed
    }

    func removeOverride(at keyPath: AnyKeyPath) {
        let removed = state.withLock { state in
            defer { state.version += 1 }
            let removed = state.overrides.filter { $0.keyPath == keyPath }
            state.overrides.removeAll { $0.keyPath == keyPath }
            return removed
        }
        _ = removed
    }

    func add(substitute: Assembly.Type, for original: Assembly.Type, whenUnused: UnusedOverrides?) {
        state.withLock { state in
            state.substitutes.removeAll { $0.original == ObjectIdentifier(original) }
            state.substitutes.append(
                Substitute(original: ObjectIdentifier(original), substitute: substitute, whenUnused: whenUnused)
            )
            state.version += 1
        }
    }

    func removeSubstitute(for original: Assembly.Type) {
        state.withLock { state in
            state.substitutes.removeAll { $0.original == ObjectIdentifier(original) }
            state.version += 1
        }
    }

    var version: Int { state.withLock { $0.version } }

    func override(for key: DefinitionKey) -> Override? {
        state.withLock { state in
            guard let override = state.overrides.first(where: { $0.key == key }) else { return nil }
            override.isUsed = true
            return override
        }
    }

    func substitute(for type: Assembly.Type) -> Assembly.Type? {
        state.withLock { state in
            guard let index = state.substitutes.firstIndex(where: { $0.original == ObjectIdentifier(type) }) else {
                return nil
            }
            state.substitutes[index].isUsed = true
            return state.substitutes[index].substitute
        }
    }

    /// What was never used: `AssemblyType.member` for a definition, the type for a collaborator;
    /// each with what `replace` said to do when it is unused, if anything.
    var unused: [(description: String, whenUnused: UnusedOverrides?)] {
        let (overrides, substitutes) = state.withLock { state in
            (state.overrides.filter { !$0.isUsed }, state.substitutes.filter { !$0.isUsed })
        }
        return overrides.map { ($0.key.description, $0.whenUnused) }
            + substitutes.map { (String(describing: $0.substitute), $0.whenUnused) }
    }
}

/// What replaces one definition: a factory of doubles, and the scope to build them in.
@usableFromInline
final class Override: @unchecked Sendable {
    // @unchecked: `isUsed` and `prebuilt` are only touched under the owning table's lock or `lock`.
    /// The definition it replaces (with the arguments of a key path through a subscript).
    let storedKey: StoredKey
    var key: DefinitionKey { storedKey.key }
    /// The key path that named it; nil for an async member, named by a closure.
    let keyPath: AnyKeyPath?
    @usableFromInline let scope: Scope?
    let whenUnused: UnusedOverrides?
    private let doubles: DoubleMaker
    private let lock = Lock()
    /// The double made while the key path was captured, handed out by the first build.
    private var prebuilt: Any?
    var isUsed = false

    init(
        key: StoredKey,
        keyPath: AnyKeyPath?,
        scope: Scope?,
        whenUnused: UnusedOverrides?,
        doubles: DoubleMaker,
        prebuilt: Any?
    ) {
        storedKey = key
        self.keyPath = keyPath
        self.scope = scope
        self.whenUnused = whenUnused
        self.doubles = doubles
        self.prebuilt = prebuilt
    }

    /// A new double (the first one was made when the override was added), as the engine keeps an
    /// instance of the definition, read in `scope`.
    func make(readIn scope: Scope) -> AnyObject {
        let first = lock.withLock {
            defer { prebuilt = nil }
            return prebuilt
        }
        return doubles.keep(first ?? doubles.make(), scope)
    }
}

/// How an override makes its doubles: the factory a test gave, and how the engine keeps what it
/// makes (see ``stored(_:scope:)``), which takes the type of the factory's values.
struct DoubleMaker: Sendable {
    /// The type of the doubles: a definition may only be replaced by doubles of its own type, so that
    /// its getter reads them back as what they are.
    let type: Any.Type
    let make: @Sendable () -> Any
    let keep: @Sendable (Any, Scope) -> AnyObject

    init<Value>(_ factory: @escaping @Sendable () -> Value) {
        type = Value.self
        make = factory
        keep = { double, scope in stored(double as! Value, scope: scope) }
    }
}

/// A key path being evaluated to learn which definition it names.
///
/// Evaluating the key path runs the getter, which calls `define`; the resolver hands that call to
/// ``captureFirst(_:)`` instead of running the definition's body. The getter must return
/// something, so the capture makes the first double then — the override hands it out later.
///
/// An async member, which a key path can't name, is read by a closure instead, in a task that
/// carries the capture in ``pending`` (see ``Overrides/replace(isolation:awaiting:scope:whenUnused:with:)``):
/// the first definition it reads is captured, on whichever thread the read runs.
@usableFromInline
final class OverrideCapture: @unchecked Sendable {
    // @unchecked: `isTaken`, `key` and `prebuilt` are set once, under `lock`, and read under it.
    /// The capture of the async member being read in this task, if any.
    @TaskLocal static var pending: OverrideCapture?

    let doubles: DoubleMaker
    private let lock = Lock()
    /// The definition the key path reads, kept with its arguments: the read that made it has
    /// returned by the time the override is added.
    private var key: StoredKey?
    private var prebuilt: Any?
    /// Whether a read has been chosen to be captured.
    private var isTaken = false

    init(doubles: DoubleMaker) {
        self.doubles = doubles
    }

    /// The capture of the `replace(awaiting:)` whose closure makes the calling read of `family`,
    /// if this read is the one to capture: the closure's first, even when reads of child tasks it
    /// started race for it.
    @inline(__always)
    static func takingThisRead(of family: Family) -> OverrideCapture? {
        family.asyncCaptures.isZero ? nil : pendingIfFirstRead()
    }

    /// The task's capture, if the calling read is the first of its closure; out of line, so that
    /// the intercepted read path it is inlined into only gains the count's check.
    @inline(never)
    private static func pendingIfFirstRead() -> OverrideCapture? {
        guard let capture = pending else { return nil }
        let isFirst = capture.lock.withLock {
            defer { capture.isTaken = true }
            return !capture.isTaken
        }
        return isFirst ? capture : nil
    }

    /// Captures `key`, the definition being read, and returns the first double. (Called by the read
    /// a key path makes, or the one ``takingThisRead(of:)`` returns a capture for.)
    func captureFirst(_ key: DefinitionKey) -> AnyObject {
        let made = doubles.make()
        guard ObjectIdentifier(key.type) == ObjectIdentifier(doubles.type) else {
            Failure.keyPathIsNotTheDefinition(key, value: type(of: made))
        }
        lock.withLock {
            self.key = StoredKey(key)
            prebuilt = made
        }
        return doubles.keep(made, .objectGraph)
    }

    /// What was captured, once the read has returned.
    var captured: (key: StoredKey, prebuilt: Any?)? {
        lock.withLock { key.map { ($0, prebuilt) } }
    }
}
