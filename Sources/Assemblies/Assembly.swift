/// The base class of every assembly: a feature's recipe for building and wiring its objects.
///
/// Subclass it once per feature. Each computed property (or method) calls ``define(withKey:scope:function:_:)-(_,_,_,(Definition<T>)->T)``
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
/// sound as long as your assembly adds no mutable stored properties of its own.
///
/// ## Families
///
/// An assembly created with `init()` is the root of a new family: its own singletons and its own
/// collaborators. Assemblies reached through ``collaborator(_:)`` join the family of the assembly
/// that reached them. Keep the root alive while you use the family.
open class Assembly: @unchecked Sendable {
    // @unchecked: the only stored property is an immutable reference to a Sendable family.
    @usableFromInline let family: Family

    /// Creates the root of a new family of assemblies, with its own singletons.
    ///
    /// When the family creates a collaborator, the same initializer makes it join that family.
    public required init() {
        if let family = Resolver.withCurrent({ $0.takePendingFamily(for: Self.self) }) {
            self.family = family
        } else {
            family = Family()
            family.adopt(root: self)
        }
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
    ///     assembly type, the member name and the result type — so two definitions never collide.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - function: The member that defines the object. Leave the default.
    ///   - body: Builds, registers and wires the instance, and returns it.
    /// - Returns: The instance for this read: built by `body`, or shared from the graph or the family.
    @inlinable
    @inline(__always)
    public final func define<T>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        function: StaticString = #function,
        _ body: (Definition<T>) -> T
    ) -> T {
        resolve(explicitKey: key, scope: scope, function: function, argument: nil, body)
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
    ///   - body: Builds and wires the instance, and returns it.
    /// - Returns: The instance for this read.
    @inlinable
    @inline(__always)
    public final func define<T>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        function: StaticString = #function,
        _ body: () -> T
    ) -> T {
        define(withKey: key, scope: scope, function: function) { (_: Definition<T>) in body() }
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
    ///   - body: Wires `existing` and returns it.
    /// - Returns: `existing`, wired.
    @inlinable
    @inline(__always)
    public final func define<T: AnyObject>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        injecting existing: T,
        function: StaticString = #function,
        _ body: (Definition<T>) -> T
    ) -> T {
        resolve(explicitKey: key, scope: scope, function: function, argument: existing) { definition in
            definition.initObject(existing)
            return body(definition)
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
    ///   - body: Wires `existing` and returns it.
    /// - Returns: `existing`, wired.
    @inlinable
    @inline(__always)
    public final func define<T: AnyObject>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        injecting existing: T,
        function: StaticString = #function,
        _ body: () -> T
    ) -> T {
        define(withKey: key, scope: scope, injecting: existing, function: function) { (_: Definition<T>) in body() }
    }

    /// Resolves one read of the definition at `function` on this thread's resolver.
    @inlinable
    @inline(__always)
    final func resolve<T>(
        explicitKey: StaticString?,
        scope: Scope,
        function: StaticString,
        argument: AnyObject?,
        _ body: (Definition<T>) -> T
    ) -> T {
        let definitionKey = DefinitionKey(
            assembly: type(of: self),
            member: function,
            type: T.self,
            explicitKey: explicitKey,
            argument: argument
        )
        return Resolver.withCurrent(key: family.resolverKey) {
            $0.resolve(definitionKey, scope: scope, in: family, body)
        }
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

    // MARK: Existing objects

    /// The one instance of `T` in the current object graph, or `nil`.
    ///
    /// It looks at the graph being resolved on this thread for this family only: its object-graph
    /// instances and every instance still being wired, of any scope. Outside a resolution it
    /// returns `nil`. When several different instances match, the program stops with their keys.
    ///
    /// ```swift
    /// var quest: Quest {
    ///     define { Quest(knight: self.existingObjectByMatchingType()) }   // the knight being wired, if any
    /// }
    /// ```
    ///
    /// - Returns: The matching instance, or `nil` when the graph has none.
    public final func existingObjectByMatchingType<T>() -> T? {
        Resolver.withCurrent { $0.existingObject(matching: T.self, in: family) }
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
        let definitionKey = DefinitionKey(
            assembly: type(of: self),
            member: #function,
            type: T.self,
            explicitKey: key,
            argument: nil
        )
        return Resolver.withCurrent { $0.existingObject(withKey: definitionKey, as: T.self, in: family) }
    }
}
