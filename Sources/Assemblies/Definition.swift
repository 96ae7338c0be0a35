/// What a definition body receives: the handle through which it registers the instance it builds.
///
/// Registering the instance *before* wiring its properties puts it into the object graph, so any
/// definition that points back at it while it is being wired gets this very instance. That is how
/// circular dependencies close:
///
/// ```swift
/// var knight: Knight {
///     define { definition in
///         let knight = definition *~> Knight(name: "Lancelot")   // registered first
///         knight.quest = self.quests.quest                       // quest.knight === knight
///         return knight
///     }
/// }
/// ```
///
/// Through it, a body can also add hooks that run when the instance is finished:
/// ``afterWiring(_:)`` once the body has returned, ``afterAllInjections(_:)`` once the whole graph
/// is complete.
///
/// A `Definition` is only valid while its body runs, in the graph that runs it: on the body's
/// thread, or — in the body of an `async` member — in its task, on whichever thread the task resumes
/// after an `await`. Using it afterwards, or from another thread or task, stops the program.
public struct Definition<T> {
    /// The frame of the resolution it belongs to. Each use looks the frame up among the resolvers
    /// of the current thread (or task, in an async body): by the resolver's address (only
    /// dereferenced once it is known to be a live resolver there: it may be gone), its number
    /// (unique for the process, so a new resolver at a freed one's address doesn't match) and the
    /// frame's serial. So a definition kept too long, or used on another thread, is recognised
    /// instead of reaching freed memory.
    @usableFromInline let handle: DefinitionHandle
    /// The key of the definition, to name it when the handle is used after its body returned. A
    /// constant of the getter, only read on that path: only its name then, since the argument values
    /// it points at may be gone.
    @usableFromInline let key: DefinitionKey

    @inlinable
    init(_ handle: DefinitionHandle, key: DefinitionKey) {
        self.handle = handle
        self.key = key
    }

    /// Calls `body` with the resolver whose frame this definition belongs to.
    @usableFromInline
    func withResolver<Result>(_ body: (Resolver) -> Result) -> Result {
        Resolver.withCurrent { current in body(current.resolver(of: handle, key: key)) }
    }

    /// Registers `object` as the instance this definition builds, and returns it with its own type.
    ///
    /// Call it before wiring properties that may lead back to this definition. The object must be a
    /// `T` — a protocol-typed definition may register the concrete class it builds and go on wiring
    /// it through its concrete type:
    ///
    /// ```swift
    /// var view: WeatherView {   // a protocol
    ///     define { definition in
    ///         let view = definition.initObject(ConsoleWeatherView())   // a ConsoleWeatherView
    ///         view.presenter = self.presenter
    ///         return view
    ///     }
    /// }
    /// ```
    ///
    /// Registering is meant for classes: a value type registers a copy. The body must return the
    /// object it registered, and may register no other (registering the same object again is harmless).
    ///
    /// - Parameter object: The instance this definition builds.
    /// - Returns: `object`, unchanged.
    @inlinable
    @inline(__always)
    @discardableResult
    public func initObject<Object>(_ object: Object) -> Object {
        let instance: T
        if Object.self == T.self {
            instance = unsafeBitCast(object, to: T.self)
        } else if let cast = object as? T {
            instance = cast
        } else {
            registeredWrongType(Object.self)
        }
        Resolver.register(stored(instance, scope: .objectGraph), in: handle, key: key)
        return object
    }

    /// Stops: the body registered an `object` of a type that is not a `T`.
    @usableFromInline
    func registeredWrongType(_ object: Any.Type) -> Never {
        withResolver { Failure.registeredWrongType($0.key(ofFrame: handle.frame), object: object, expected: T.self) }
    }

    /// Adds a hook that runs once the body has returned the instance, wired: once per instance
    /// built, never when a cached singleton or an instance already in the graph is handed out.
    ///
    /// ```swift
    /// var database: Database {
    ///     define(scope: .singleton) { definition in
    ///         definition.afterWiring { database in database.migrate() }
    ///         return Database(path: self.path)
    ///     }
    /// }
    /// ```
    ///
    /// Hooks run right after the body returns, in the order the body added them, before the
    /// definition that read this one goes on. In a cycle, an instance this one points back to may
    /// still be being wired when the hook runs; work that needs the whole graph belongs in
    /// ``afterAllInjections(_:)``.
    ///
    /// - Parameter hook: Called with the instance the body returned.
    public func afterWiring(_ hook: @escaping (T) -> Void) {
        withResolver { $0.addHook(in: handle, key: key, isDeferred: false) { hook($0 as! T) } }
    }

    /// Declares how the instance shuts down when its family does (see ``Assembly/shutDown()``): for
    /// a singleton, or an instance of a resettable scope, that owns a resource — a connection pool,
    /// an HTTP client, a file.
    ///
    /// ```swift
    /// var client: HTTPClient {
    ///     define(scope: .singleton) { definition in
    ///         definition.onShutdown { client in try await client.shutdown() }
    ///         return HTTPClient()
    ///     }
    /// }
    /// ```
    ///
    /// The family calls `shutdown` once, with the instance the body returned, when it shuts down:
    /// the instances built last first, and for one instance the shutdown declared last first. An
    /// instance that ``Assembly/reset(_:)`` drops is shut down with its family too, and kept until
    /// then; ``Assembly/shutDown(_:)`` resets a scope and shuts its instances down at once. A body
    /// that throws declares nothing. A ``WiringCheck`` shuts down the instances it built; the
    /// singletons a task builds while it applies ``Overrides`` are not shut down, nor are the
    /// instances of a family whose root is released before it shuts down: releasing the root
    /// releases them without their shutdowns — call ``Assembly/shutDown()`` first. Only stored
    /// instances shut down: in any other scope, and in a weak singleton, which the family doesn't
    /// keep, the program stops with a message.
    ///
    /// - Parameter shutdown: Releases what the instance owns; what it throws, ``Assembly/shutDown()``
    ///   throws once every instance has been shut down.
    public func onShutdown(_ shutdown: @escaping @Sendable (T) async throws -> Void) {
        withResolver { resolver in
            resolver.addShutdown(in: handle, key: key) { object in try await shutdown(unboxed(object) as! T) }
        }
    }

    /// Adds a step that runs when the whole object graph is complete: after the outermost
    /// definition of the top-level read has returned, before the read hands its result back.
    ///
    /// It is Typhoon's "after all injections", and the way to close a cycle that is entered through
    /// an initializer: the step can read the definition that is still being built when the body runs.
    ///
    /// ```swift
    /// var quest: Quest {
    ///     define { definition in
    ///         let quest = Quest()
    ///         definition.afterAllInjections { quest in quest.knight = self.knight }
    ///         return quest
    ///     }
    /// }
    /// var knight: Knight { define { Knight(quest: self.quest) } }   // knight.quest.knight === knight
    /// ```
    ///
    /// Steps run once per instance built, in the order their instances were finished (a
    /// dependency's before its dependent's), and for one instance in the order they were added,
    /// after every ``afterWiring(_:)`` hook. Reads in a step join the same graph; steps that those
    /// reads add run after the others.
    ///
    /// - Parameter step: Called with the instance the body returned.
    public func afterAllInjections(_ step: @escaping (T) -> Void) {
        withResolver { $0.addHook(in: handle, key: key, isDeferred: true) { step($0 as! T) } }
    }

    /// Registers `object` as the instance this definition builds, and returns it with its own type.
    ///
    /// The same as ``initObject(_:)``:
    ///
    /// ```swift
    /// let knight = definition *~> Knight(name: "Lancelot")
    /// ```
    @inlinable
    @inline(__always)
    @discardableResult
    public static func *~> <Object>(definition: Definition<T>, object: Object) -> Object {
        definition.initObject(object)
    }
}

/// Precedence of ``Definition/*~>(_:_:)``: looser than every expression on its right, tighter than assignment.
precedencegroup DefinitionRegistrationPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
    lowerThan: TernaryPrecedence
}

/// Registers an instance with a definition: `definition *~> Knight()`. See ``Definition/initObject(_:)``.
infix operator *~> : DefinitionRegistrationPrecedence
