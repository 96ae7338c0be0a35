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
/// A `Definition` is only valid while its body runs; using it afterwards stops the program.
public struct Definition<T> {
    @usableFromInline unowned(unsafe) let resolver: Resolver
    @usableFromInline let frame: Int
    @usableFromInline let serial: UInt64

    @inlinable
    init(resolver: Resolver, frame: Int, serial: UInt64) {
        self.resolver = resolver
        self.frame = frame
        self.serial = serial
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
    @discardableResult
    public func initObject<Object>(_ object: Object) -> Object {
        let instance: T
        if Object.self == T.self {
            instance = unsafeBitCast(object, to: T.self)
        } else if let cast = object as? T {
            instance = cast
        } else {
            Failure.registeredWrongType(resolver.key(ofFrame: frame), object: Object.self, expected: T.self)
        }
        resolver.register(instance, frame: frame, serial: serial)
        return object
    }

    /// Registers `object` as the instance this definition builds, and returns it with its own type.
    ///
    /// The same as ``initObject(_:)``:
    ///
    /// ```swift
    /// let knight = definition *~> Knight(name: "Lancelot")
    /// ```
    @inlinable
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
