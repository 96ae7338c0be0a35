/// The base class of every assembly: a feature's recipe for building and wiring its objects.
///
/// Subclass it once per feature. Each computed property (or method) calls ``define(withKey:scope:function:file:line:_:)-8ozsy``
/// to say how one object is built and wired; reading the property hands back a fully wired object.
/// A definition that does not exist is a compile error, because it is an ordinary member.
///
/// ```swift
/// final class KnightsAssembly: Assembly, @unchecked Sendable {
///     var quests: QuestsAssembly { collaborator() }
///
///     var knight: Knight {
///         define { definition in
///             let knight = definition *~> Knight(name: "Lancelot")
///             knight.quest = self.quests.quest   // may point back to the knight
///             knight.horse = self.horse
///             return knight
///         }
///     }
///
///     var horse: Horse { define(scope: .prototype) { Horse() } }
///     var castle: Castle { define(withKey: "camelot", scope: .singleton) { Castle() } }
/// }
///
/// let knight = KnightsAssembly().knight
/// ```
///
/// ## Sharing an assembly across threads
///
/// An assembly is `Sendable`: read it from any thread, task or actor. It keeps no state of its
/// own — the graph in flight belongs to the reading thread, and the singletons live in the family
/// behind a lock. Because `Assembly` is a non-final class, Swift asks every subclass to restate the
/// conformance; write `final class MyAssembly: Assembly, @unchecked Sendable`. The restatement is
/// sound as long as your assembly adds no mutable state: its stored properties are `let`s of
/// `Sendable` types. Debug builds check the first assembly of each type for stored `var`s and stop
/// with the property's name (see <doc:ThreadSafety#Restating-unchecked-Sendable>).
///
/// ## Families
///
/// An assembly created with `init()` is the root of a new family: its own singletons and its own
/// collaborators. Assemblies reached through ``collaborator(_:)`` join the family of the assembly
/// that reached them. Keep the root alive while you use the family.
///
/// A root created with ``init(configuration:)`` gives its family values — settings, a URL, an
/// environment — that every assembly of the family reads with ``configuration(_:)``.
open class Assembly: @unchecked Sendable {
    // @unchecked: the only stored property is an immutable reference to a Sendable family.
    @usableFromInline let family: Family

    /// Creates the root of a new family of assemblies, with its own singletons.
    ///
    /// When the family creates a collaborator, the same initializer makes it join that family.
    public required init() {
        // A thread that has no resolver yet has no family or configuration waiting: its first
        // assembly makes none, and the first read does.
        if let family = Resolver.withExisting({ $0.takePendingFamily(for: Self.self) }) {
            self.family = family
        } else {
            let configuration = Resolver.withExisting { $0.takePendingConfiguration(for: Self.self) }
            family = Family(configuration: configuration ?? FamilyConfiguration(unconfigured: Self.self))
            family.adopt(root: self)
        }
        StoredStateCheck.check(Self.self)
    }

    /// Creates the root of a new family configured with `values`, which every assembly of the family
    /// reads with ``configuration(_:)``.
    ///
    /// ```swift
    /// struct Settings: Sendable {
    ///     let databaseURL: String
    /// }
    ///
    /// final class AppAssembly: Assembly, @unchecked Sendable {
    ///     var storage: StorageAssembly { collaborator() }
    /// }
    ///
    /// final class StorageAssembly: Assembly, @unchecked Sendable {
    ///     var database: Database {
    ///         define(scope: .singleton) { Database(url: self.configuration(Settings.self).databaseURL) }
    ///     }
    /// }
    ///
    /// let app = AppAssembly(configuration: Settings(databaseURL: "postgres://localhost/app"))
    /// ```
    ///
    /// Every subclass has this initializer: it needs no initializer of its own, and `init()` still
    /// creates the collaborators. Give one value of each type — a configuration struct, a URL, an
    /// environment enum; two values of one type stop the program, since definitions read them by
    /// type. The values are `Sendable` and never change: a family reads them from any thread without
    /// a lock. For values that change at run time, configure the family with the object that holds
    /// them.
    ///
    /// - Parameter values: The family's configuration, one value of each type.
    public convenience init<each Value: Sendable>(configuration values: repeat each Value) {
        let configuration = FamilyConfiguration(of: Self.self, repeat each values)
        let outer = Resolver.withCurrent { $0.beginRoot(Self.self, configuredWith: configuration) }
        self.init()
        Resolver.withCurrent { $0.endRoot(outer) }
    }

    deinit {
        family.rootWillDeinit(self)
    }

    // MARK: Defining

    /// Defines how the object this member returns is built and wired.
    ///
    /// Call it from a computed property or a method, and build the object in `body`. Take the
    /// ``Definition`` parameter when the object takes part in a circular dependency: register the
    /// instance with `definition *~> object` before wiring the properties that lead back to it.
    ///
    /// ```swift
    /// var knight: Knight {
    ///     define { definition in
    ///         let knight = definition *~> Knight()
    ///         knight.quest = self.quest   // quest.knight === knight
    ///         return knight
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family: every definition with this key, in any
    ///     assembly of the family, is one slot. By default the key is the definition site — this
    ///     assembly type, the member name, the result type and the place in the source — so two
    ///     definitions never collide, and an override that reads `super`'s definition gets the
    ///     superclass's instance. The key is a string literal; to key by values known only at run
    ///     time, pass them as `arguments:` with a literal key:
    ///     `define(withKey: "user", arguments: id) { ... }`.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - body: Builds, registers and wires the instance, and returns it. It may throw: see
    ///     <doc:ThrowingDefinitions>.
    /// - Returns: The instance for this read: built by `body`, or shared from the graph or the family.
    /// - Throws: What `body` throws, with its type; nothing when it throws nothing. A body that threw
    ///   leaves nothing behind: the next read builds the object again.
    @inlinable
    @inline(__always)
    public final func define<T, E: Error>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let definitionKey = self.key(
            T.self,
            explicitKey: key,
            function: function,
            file: file,
            line: line,
            argument: nil
        )
        return try Reading.read(definitionKey, scope: scope, of: self, body)
    }

    /// Defines how the object this member returns is built, when it needs no registration.
    ///
    /// ```swift
    /// var horse: Horse { define(scope: .prototype) { Horse() } }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - body: Builds and wires the instance, and returns it.
    /// - Returns: The instance for this read.
    /// - Throws: What `body` throws; nothing when it throws nothing.
    @inlinable
    @inline(__always)
    public final func define<T, E: Error>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        let definitionKey = self.key(
            T.self,
            explicitKey: key,
            function: function,
            file: file,
            line: line,
            argument: nil
        )
        return try Reading.read(definitionKey, scope: scope, of: self) { (_: Definition<T>) throws(E) in
            try body()
        }
    }

    /// Defines how an object built outside the framework is wired: injection into an existing object.
    ///
    /// The object is registered before `body` runs, so it takes part in circular dependencies, and
    /// it is part of the definition's key: injecting two different objects through the same method
    /// within one graph wires both. The framework never constructs another one.
    ///
    /// ```swift
    /// func inject(_ squire: Squire) -> Squire {
    ///     define(injecting: squire) { definition in
    ///         squire.master = self.knight   // knight.squire may point back to this squire
    ///         return squire
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the wiring is shared; ``Scope/objectGraph`` by default.
    ///   - existing: The object to wire.
    ///   - function: The member that defines the injection. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - body: Wires `existing` and returns it.
    /// - Returns: `existing`, wired.
    /// - Throws: What `body` throws; nothing when it throws nothing.
    @inlinable
    @inline(__always)
    public final func define<T: AnyObject, E: Error>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        injecting existing: T,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let definitionKey = self.key(
            T.self,
            explicitKey: key,
            function: function,
            file: file,
            line: line,
            argument: existing
        )
        return try Reading.read(definitionKey, scope: scope, of: self) { (definition: Definition<T>) throws(E) in
            definition.initObject(existing)
            return try body(definition)
        }
    }

    /// Defines how an object built outside the framework is wired, when the body needs no
    /// ``Definition``: the object is already registered.
    ///
    /// ```swift
    /// func inject(_ delegate: AppDelegate) -> AppDelegate {
    ///     define(injecting: delegate) {
    ///         delegate.rootController = self.rootController   // may point back to the delegate
    ///         return delegate
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the wiring is shared; ``Scope/objectGraph`` by default.
    ///   - existing: The object to wire.
    ///   - function: The member that defines the injection. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - body: Wires `existing` and returns it.
    /// - Returns: `existing`, wired.
    /// - Throws: What `body` throws; nothing when it throws nothing.
    @inlinable
    @inline(__always)
    public final func define<T: AnyObject, E: Error>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        injecting existing: T,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        try define(withKey: key, scope: scope, injecting: existing, function: function, file: file, line: line) {
            (_: Definition<T>) throws(E) in try body()
        }
    }

    /// Defines how the object a method with parameters returns is built, with the argument values
    /// as part of its key.
    ///
    /// ```swift
    /// func knight(named name: String, quests: Int) -> Knight {
    ///     define(arguments: name, quests) { Knight(name: name, quests: quests, horse: self.horse) }
    /// }
    ///
    /// assembly.knight(named: "Lancelot", quests: 3)
    /// ```
    ///
    /// Within one object graph, equal arguments give the same instance and different arguments
    /// different ones; a singleton is one instance per combination of argument values, kept by the
    /// family like any singleton. Any number of arguments of any `Hashable` types may be given, and
    /// `nil` is a value like any other. To pass arguments on, call the next definition with them —
    /// in this assembly or a collaborator. A graph keeps no argument once it has closed.
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site. A string
    ///     literal: values known only at run time belong in `arguments`.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - arguments: The method's parameters, as part of the key.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - body: Builds, registers and wires the instance, and returns it.
    /// - Returns: The instance for this read and these arguments.
    /// - Throws: What `body` throws; nothing when it throws nothing.
    @inlinable
    public final func define<T, E: Error, each Argument: Hashable>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        arguments: repeat each Argument,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let arguments = ArgumentList.of(repeat each arguments)
        // The key doesn't retain its arguments: this call keeps them while the read runs.
        let definitionKey = DefinitionKey(
            assembly: type(of: self),
            member: function,
            type: T.self,
            explicitKey: key,
            file: file,
            line: line,
            argumentBits: arguments.bits,
            arguments: arguments
        )
        defer { withExtendedLifetime(arguments) {} }
        return try Reading.read(definitionKey, scope: scope, of: self, body)
    }

    /// Defines how the object a method with parameters returns is built, with the argument values
    /// as part of its key, when it needs no registration.
    ///
    /// ```swift
    /// func banner(for city: String, units: Units?) -> Banner {
    ///     define(scope: .singleton, arguments: city, units) { Banner(city: city, units: units) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site. A string
    ///     literal: values known only at run time belong in `arguments`.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - arguments: The method's parameters, as part of the key.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - body: Builds and wires the instance, and returns it.
    /// - Returns: The instance for this read and these arguments.
    /// - Throws: What `body` throws; nothing when it throws nothing.
    @inlinable
    public final func define<T, E: Error, each Argument: Hashable>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        arguments: repeat each Argument,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        try define(
            withKey: key,
            scope: scope,
            arguments: repeat each arguments,
            function: function,
            file: file,
            line: line
        ) { (_: Definition<T>) throws(E) in try body() }
    }

    /// The key of a read of this assembly's definition at `function`, `file` and `line`.
    @inlinable
    @inline(__always)
    final func key<T>(
        _: T.Type,
        explicitKey: StaticString?,
        function: StaticString,
        file: StaticString,
        line: UInt,
        argument: AnyObject?
    ) -> DefinitionKey {
        DefinitionKey(
            assembly: type(of: self),
            member: function,
            type: T.self,
            explicitKey: explicitKey,
            file: file,
            line: line,
            argumentBits: argument.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0,
            arguments: nil
        )
    }

    // MARK: Configuration

    /// The value of type `Value` that the family's root was created with, by
    /// ``init(configuration:)``.
    ///
    /// ```swift
    /// var client: HTTPClient {
    ///     define(scope: .singleton) { HTTPClient(baseURL: self.configuration(Settings.self).apiURL) }
    /// }
    /// ```
    ///
    /// Any assembly of the family reads the root's values: the root itself and every collaborator.
    /// `Value` may also be a protocol or a superclass that exactly one of the values is. When the
    /// family has no such value, the program stops with a message that names the types it has.
    ///
    /// - Parameter type: The type of the value; inferred from the context by default.
    /// - Returns: The value.
    public final func configuration<Value>(_ type: Value.Type = Value.self) -> Value {
        family.configuration.value(Value.self, readBy: Swift.type(of: self))
    }

    // MARK: Collaborators

    /// Another assembly of this family, created on first use.
    ///
    /// Collaborators share this assembly's family: its object graph in flight and its singletons.
    /// A family holds one assembly of each type, so reaching the root's type gives the root itself.
    ///
    /// ```swift
    /// final class KnightsAssembly: Assembly, @unchecked Sendable {
    ///     var quests: QuestsAssembly { collaborator() }
    ///     var knight: Knight { define { Knight(quest: self.quests.quest) } }
    /// }
    /// ```
    ///
    /// - Parameter type: The assembly type; inferred from the context by default.
    /// - Returns: The family's assembly of that type.
    public final func collaborator<A: Assembly>(_ type: A.Type = A.self) -> A {
        family.assembly(of: type)
    }

    // MARK: Activation and resettable scopes

    /// Builds this family's eager singletons, if you override it: the singletons that
    /// ``activate()`` builds when the program starts instead of on first read.
    ///
    /// Read them in the order they should be built; reach collaborators' eager singletons from
    /// here too. Each read is a top-level resolution of its own.
    ///
    /// ```swift
    /// override func buildEagerSingletons() {
    ///     _ = database        // first
    ///     _ = analytics       // second; it may read `database`
    ///     core.buildEagerSingletons()
    /// }
    /// ```
    ///
    /// Definitions read here keep their scope; list singletons. A singleton that isn't listed stays
    /// lazy (``Scope/singleton`` is lazy by default).
    open func buildEagerSingletons() {}

    /// Activates the family: calls the root's ``buildEagerSingletons()`` once, building the eager
    /// singletons in the order it reads them.
    ///
    /// ```swift
    /// let app = ApplicationAssembly()
    /// app.activate()   // the eager singletons exist from here on
    /// ```
    ///
    /// Activating a family again, or from another of its assemblies, does nothing. No lock is held
    /// while the eager singletons are built: a call made while another thread activates the family
    /// builds the remaining ones alongside it (each is still built once) and returns when they all
    /// exist; a call from within the activation — a body or hook it runs — returns at once. A family
    /// that is never activated works too; its eager singletons are then built on first read. While
    /// ``Overrides`` apply in this task, it builds the eager singletons among the overrides'
    /// singletons, each time it is called, and leaves the family itself unactivated.
    ///
    /// The eager singletons whose bodies await, listed by ``buildAsyncEagerSingletons()``, are built
    /// by `try await` ``activate(isolation:)``, which async code calls instead.
    public final func activate() {
        activateSynchronously()
    }

    /// Builds this family's eager singletons whose bodies await, if you override it: the ones that
    /// `await` ``activate(isolation:)`` builds after those of ``buildEagerSingletons()``.
    ///
    /// Read them in the order they should be built; reach collaborators' async eager singletons from
    /// here too. Each read is a top-level resolution of its own. An error a read throws ends the
    /// activation, and `activate` throws it.
    ///
    /// ```swift
    /// override func buildAsyncEagerSingletons() async throws {
    ///     _ = try await database       // first
    ///     _ = try await remoteSettings  // second; it may read `database`
    ///     try await core.buildAsyncEagerSingletons()
    /// }
    /// ```
    open func buildAsyncEagerSingletons() async throws {}

    /// Activates the family, awaiting the eager singletons that are built asynchronously: builds
    /// those of ``buildEagerSingletons()`` as ``activate()`` does, then calls the root's
    /// ``buildAsyncEagerSingletons()`` once, building those in the order it reads them.
    ///
    /// ```swift
    /// let app = ApplicationAssembly()
    /// try await app.activate()   // every eager singleton exists from here on
    /// ```
    ///
    /// The synchronous eager singletons come first, since none of them can read one whose body
    /// awaits. Activating again does nothing once `buildAsyncEagerSingletons()` has returned; if it
    /// threw, the next call runs it again. No lock is held while it runs: tasks that activate the
    /// family at the same time each run it, and each singleton is still built once; a call from
    /// within the activation — a body it runs, or a child task of it — returns at once. While
    /// ``Overrides`` apply in this task, it builds the eager singletons among the overrides'
    /// singletons, each time it is called, and leaves the family itself unactivated.
    ///
    /// In an async context, `activate()` is this method, so it is written `try await`.
    ///
    /// - Parameter isolation: The actor `buildAsyncEagerSingletons()` runs on; the caller's by
    ///   default.
    public final func activate(isolation: isolated (any Actor)? = #isolation) async throws {
        activateSynchronously()
        let root = family.root ?? self
        if family.isIntercepted && OverrideContext.innermost(for: family) != nil {
            return try await root.buildAsyncEagerSingletons()
        }
        try await family.activateAsynchronously(isolation: isolation) { try await root.buildAsyncEagerSingletons() }
    }

    private func activateSynchronously() {
        let root = family.root ?? self
        if family.isIntercepted && OverrideContext.innermost(for: family) != nil {
            return root.buildEagerSingletons()
        }
        family.activate { root.buildEagerSingletons() }
    }

    /// Drops the instances of the resettable scope `scope`, so that the next read of each of its
    /// definitions builds a new one; other scopes keep theirs.
    ///
    /// ```swift
    /// extension Scope {
    ///     static let session = Scope.resettable("session")
    /// }
    ///
    /// app.reset(.session)   // e.g. when the user logs out
    /// ```
    ///
    /// Dropped instances that adopt ``Disposable`` are disposed of, the most recently built first,
    /// after the scope is empty. Objects that still hold a dropped instance keep it. A reset waits for
    /// no other thread: an instance of the scope that a graph is building when it is called — on
    /// another thread, or the graph whose body or hook calls `reset` — is dropped once finished and
    /// disposed of when that graph's top-level read returns, so every instance built before the
    /// reset is dropped and disposed of exactly once. A graph may still finish with instances it read
    /// before the reset. `dispose()` may read the family, and reset it again. While ``Overrides``
    /// apply in this task, it resets the scope's instances in those overrides.
    ///
    /// - Parameter scope: A scope made by ``Scope/resettable(_:)``.
    public final func reset(_ scope: Scope) {
        _ = dropInstances(of: scope)
    }

    /// Drops the instances of `scope` as ``reset(_:)`` does, disposing of them; returns them, the most
    /// recently built first, with the store that held them.
    func dropInstances(of scope: Scope) -> (dropped: [AnyObject], store: SingletonStore) {
        guard scope.kind == .resettable else { Failure.resetOfUnnamedScope(scope) }
        let context = family.isIntercepted ? OverrideContext.innermost(for: family) : nil
        let store = context?.singletons() ?? family.singletons
        let dropped = store.reset(scope)
        for object in dropped {
            (unboxed(object) as? Disposable)?.dispose()
        }
        return (dropped, store)
    }

    // MARK: Waiting for other threads

    /// How many seconds a thread waits for a singleton that another thread is building before it
    /// prints a warning (and goes on waiting); one second by default.
    ///
    /// A thread that reads a singleton another thread is building waits for that singleton alone,
    /// until it is published. The wait can't end when the body building it waits, in turn, for the
    /// waiting thread — a `DispatchQueue.main.sync` or a semaphore inside a singleton body. Rather
    /// than hang silently, the waiting thread then prints which singleton it waits for, which thread
    /// holds it and through which definitions:
    ///
    /// ```
    /// Assemblies: warning: thread 2 has waited 1.0 s for the singleton AppAssembly.database, which
    /// thread 1 ("main") is building or is about to publish: AppAssembly.api → AppAssembly.database. …
    /// ```
    ///
    /// A task that waits for an async singleton — suspended, not blocking a thread — warns the same
    /// way, as `task 4`, once; so does a ``shutDown()`` that still waits for an instance being built.
    public static var singletonWaitWarningDelay: Double {
        get { WaitWarning.delay }
        set { WaitWarning.delay = newValue }
    }

    // MARK: Existing objects

    /// The one instance of `T` in the current object graph, or `nil`.
    ///
    /// It looks at the graph being resolved on this thread — or by this task, in an async body — for
    /// this family only: its object-graph instances and every instance still being wired, of any
    /// scope. Outside a resolution it returns `nil`. When several different instances match, the program stops with their keys.
    ///
    /// ```swift
    /// var quest: Quest {
    ///     define { Quest(knight: self.existingObjectByMatchingType()) }   // the knight being wired, if any
    /// }
    /// ```
    ///
    /// - Returns: The matching instance, or `nil` when the graph has none.
    public final func existingObjectByMatchingType<T>() -> T? {
        onCurrentGraph { $0.existingObject(matching: T.self, in: family) }
    }

    /// The instance defined with the explicit key `key` in the current object graph, or `nil`.
    ///
    /// It sees what ``existingObjectByMatchingType()`` sees, by key rather than by type. Asking for
    /// a type other than the one the key was defined with stops the program, like any other use of
    /// one explicit key for two types.
    ///
    /// ```swift
    /// let castle: Castle? = existingObject(withKey: "camelot")
    /// ```
    ///
    /// - Parameter key: An explicit key given to `define(withKey:)`.
    /// - Returns: The instance, or `nil` when the current graph has none under that key.
    public final func existingObject<T>(withKey key: StaticString) -> T? {
        let definitionKey = self.key(
            T.self,
            explicitKey: key,
            function: #function,
            file: #fileID,
            line: #line,
            argument: nil
        )
        return onCurrentGraph { $0.existingObject(withKey: definitionKey, as: T.self, in: family) }
    }

    /// Runs `body` on the resolver of the graph being resolved: the task's, in an async body (which
    /// runs while this thread is in no graph), or else this thread's.
    private func onCurrentGraph<Result>(_ body: (Resolver) -> Result) -> Result {
        if let graph = Resolver.withCurrent({ $0.taskGraphToJoin(readingFrom: family) }) {
            return graph.takeUnretainedValue().installed(body)
        }
        return Resolver.withCurrent(body)
    }
}
