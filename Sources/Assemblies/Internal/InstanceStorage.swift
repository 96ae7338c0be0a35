/// Whether values of `T` are single class references, which the library stores as they are and reads
/// back without a dynamic cast: a default key includes its result type, and an explicit key's type is
/// checked before its slot is read, so a slot only ever holds a `T`. Other values are stored as `Any`
/// in the graph (boxed by Swift when larger than three words) and in a ``ValueBox`` as singletons.
@inlinable
func isReference<T>(_: T.Type) -> Bool {
    T.self is AnyObject.Type && MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
}

/// A singleton value that is not a class reference, boxed once when the singleton is built.
@usableFromInline
final class ValueBox<Value>: AnyValueBox {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }

    var anyValue: Any { value }
}

/// A ``ValueBox`` whose value type isn't known.
protocol AnyValueBox: AnyObject {
    var anyValue: Any { get }
}

/// The instance a stored object stands for: the object itself, or the value a ``ValueBox`` holds.
func unboxed(_ object: AnyObject) -> Any {
    (object as? AnyValueBox)?.anyValue ?? object
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

/// The `T` stored for a definition in `scope`: see ``unboxSingleton(_:as:)``, and for a weak
/// singleton ``weaklyHeld(_:_:)``.
@usableFromInline
func unboxStored<T>(_ object: AnyObject, scope: Scope, as _: T.Type) -> T {
    if scope.kind == .weakSingleton && !isReference(T.self) {
        return object as! T
    }
    return unboxSingleton(object, as: T.self)
}

/// The object a weak singleton's family holds weakly: the instance itself, which must be an object.
@usableFromInline
func weaklyHeld<T>(_ instance: T, _ key: DefinitionKey) -> AnyObject {
    if isReference(T.self) { return unsafeBitCast(instance, to: AnyObject.self) }
    guard type(of: instance as Any) is AnyObject.Type else { Failure.weakSingletonOfValue(key) }
    return instance as AnyObject
}

/// The identity of `value` when it is an object, however it is typed.
func identity(of value: Any) -> ObjectIdentifier? {
    type(of: value) is AnyObject.Type ? ObjectIdentifier(value as AnyObject) : nil
}

extension UnsafeMutablePointer {
    /// Moves the first `count` elements into a new buffer of `capacity`, frees this one, and
    /// returns the new one: how the resolver's buffers grow.
    func moved(count: Int, toCapacity capacity: Int) -> UnsafeMutablePointer<Pointee> {
        let grown = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity)
        grown.moveInitialize(from: self, count: count)
        deallocate()
        return grown
    }
}
