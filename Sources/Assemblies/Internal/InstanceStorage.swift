/// Whether values of `T` are single class references, which the engine keeps as they are and hands
/// back without a dynamic cast: a default key includes its result type, and an explicit key's type is
/// checked before its slot is read, so a slot only ever holds a `T`. Other values are kept in a
/// ``ValueBox``.
@inlinable
@inline(__always)
func isReference<T>(_: T.Type) -> Bool {
    T.self is AnyObject.Type && MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
}

/// A value that is not a class reference, as the engine keeps it: boxed when its body returns it or
/// registers it (see ``stored(_:scope:)``).
@usableFromInline
final class ValueBox<Value>: AnyValueBox {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }

    override var anyValue: Any { value }
}

/// A ``ValueBox`` whose value type isn't known: a class, so that telling a box from an object is a
/// class check, not a protocol conformance lookup.
@usableFromInline
class AnyValueBox {
    /// The boxed value.
    var anyValue: Any { preconditionFailure("Assemblies: AnyValueBox is abstract") }
}

/// The instance a kept object stands for: the object itself, or the value a ``ValueBox`` holds.
func unboxed(_ object: AnyObject) -> Any {
    (object as? AnyValueBox)?.anyValue ?? object
}

/// The instance a singleton's object stands for, as a `T`.
@inlinable
@inline(__always)
func unboxSingleton<T>(_ object: AnyObject, as _: T.Type) -> T {
    isReference(T.self) ? unsafeBitCast(object, to: T.self) : unboxedValue(of: object, as: T.self)
}

/// The value a ``ValueBox`` of `T` holds. Not inlined: a getter of a class is compiled with the
/// branch for a value, which this keeps out of it (one copy per type of value instead).
@inlinable
@inline(never)
func unboxedValue<T>(of object: AnyObject, as _: T.Type) -> T {
    unsafeDowncast(object, to: ValueBox<T>.self).value
}

/// The instance an object the engine handed back stands for, as a `T`: a weak singleton that is not
/// a class reference is an existential's object (see ``stored(_:scope:)``), read with a cast.
@inlinable
@inline(__always)
func unboxStored<T>(_ object: AnyObject, scope: Scope, as _: T.Type) -> T {
    if case .weakSingleton = scope.kind, !isReference(T.self) {
        return unboxedValue(of: object) as! T
    }
    return unboxSingleton(object, as: T.self)
}

/// ``unboxStored(_:scope:as:)`` for an object retained for the caller, who takes it: a class
/// instance as it is, any other value in one call, out of line, which releases the box.
@inlinable
@inline(__always)
func takeStored<T>(_ object: Unmanaged<AnyObject>, scope: Scope, as _: T.Type) -> T {
    if isReference(T.self) { return unsafeBitCast(object.takeRetainedValue(), to: T.self) }
    return takeUnboxed(object, scope: scope, as: T.self)
}

/// The value a stored object retained for the caller stands for; the object is released. Not
/// inlined: a getter of a class is compiled with this branch (see ``unboxedValue(of:as:)``).
@inlinable
@inline(never)
func takeUnboxed<T>(_ object: Unmanaged<AnyObject>, scope: Scope, as _: T.Type) -> T {
    unboxStored(object.takeRetainedValue(), scope: scope, as: T.self)
}

/// ``unboxed(_:)``, for inlined code.
@usableFromInline
func unboxedValue(of object: AnyObject) -> Any {
    unboxed(object)
}

/// The identity of an instance: a class instance's, or an existential's object's; nil for any other
/// value.
func identity(of value: Any) -> ObjectIdentifier? {
    type(of: value) is AnyObject.Type ? ObjectIdentifier(value as AnyObject) : nil
}

/// The identity of the instance an object the engine keeps stands for (see ``stored(_:scope:)``):
/// the object's own, without a cast to `Any` and back, unless it is a ``ValueBox``.
func identity(ofKept object: AnyObject) -> ObjectIdentifier? {
    guard let box = object as? AnyValueBox else { return ObjectIdentifier(object) }
    return identity(of: box.anyValue)
}

/// ``identity(ofKept:)`` of an instance read as `type`: when the object is of that very class, which
/// a box never is, without a cast.
func identity(ofKept object: AnyObject, readAs type: Any.Type) -> ObjectIdentifier? {
    if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(type) { return ObjectIdentifier(object) }
    return identity(ofKept: object)
}

extension UnsafeMutablePointer {
    /// This buffer's first `count` elements moved to a new buffer of `capacity`; this one is freed.
    func moved(count: Int, toCapacity capacity: Int) -> UnsafeMutablePointer<Pointee> {
        let grown = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity)
        grown.moveInitialize(from: self, count: count)
        deallocate()
        return grown
    }
}
