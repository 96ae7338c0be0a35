/// Whether values of `T` are single class references, which the library stores without boxing or
/// casting: the key of every slot includes its result type, so a slot only ever holds a `T`.
@inlinable
func isReference<T>(_: T.Type) -> Bool {
    T.self is AnyObject.Type && MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
}

/// An instance held by the object graph: a class reference, or any other value.
///
/// Storing it never allocates (a reference is kept as it is; a value goes into `Any`'s inline
/// buffer or, when larger, a box that Swift already made), and reading a reference back costs no
/// dynamic cast.
@usableFromInline
struct Instance {
    @usableFromInline var object: AnyObject?
    @usableFromInline var value: Any?

    @inlinable
    init() {
        object = nil
        value = nil
    }

    @inlinable
    init<T>(_ instance: T) {
        if isReference(T.self) {
            object = unsafeBitCast(instance, to: AnyObject.self)
            value = nil
        } else {
            object = nil
            value = instance
        }
    }

    @inlinable
    var isEmpty: Bool { object == nil && value == nil }

    /// The instance as the `T` it was stored as.
    @inlinable
    func get<T>(as _: T.Type) -> T {
        if isReference(T.self) {
            return unsafeBitCast(object.unsafelyUnwrapped, to: T.self)
        }
        return value as! T
    }

    /// The instance as `Any`, for lookups by type.
    var any: Any? { object ?? value }

    /// The identity of the instance when it is an object, however it was typed.
    var identity: ObjectIdentifier? {
        if let object { return ObjectIdentifier(object) }
        if let value, type(of: value) is AnyObject.Type { return ObjectIdentifier(value as AnyObject) }
        return nil
    }
}

/// A singleton value that is not a class reference, boxed once when the singleton is built.
@usableFromInline
final class ValueBox<Value> {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}

/// A singleton as the family stores it: the object itself, or a ``ValueBox``.
@inlinable
func boxSingleton<T>(_ instance: T) -> AnyObject {
    isReference(T.self) ? unsafeBitCast(instance, to: AnyObject.self) : ValueBox(instance)
}

/// The `T` stored by ``boxSingleton(_:)``; the caller has checked that the slot holds a `T`.
@inlinable
func unboxSingleton<T>(_ object: AnyObject, as _: T.Type) -> T {
    isReference(T.self) ? unsafeBitCast(object, to: T.self) : unsafeDowncast(object, to: ValueBox<T>.self).value
}
