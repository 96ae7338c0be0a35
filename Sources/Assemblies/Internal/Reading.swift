public import CAssemblies

// What a getter inlines: its key's parts, a look at the singleton line cache, and the calls that
// enter and leave the engine around its body.

/// The frame of a resolver that a read builds its instance in: the resolver (which it doesn't
/// retain: the resolver is current, or one its thread or task is running a read on, for as long as
/// the frame exists; a ``Definition`` checks that before each use, see
/// ``Resolver/resolver(of:key:)``), the resolver's process-wide number, and the frame's index and
/// serial.
///
/// `@unchecked Sendable`: it only names a frame. A body may run on another thread than its read's
/// `enter` (an async body, after a suspension), and every use from a ``Definition`` first checks
/// that the frame is one of the current thread's or task's resolvers, and stops otherwise.
@usableFromInline
struct DefinitionHandle: @unchecked Sendable {
    @usableFromInline let resolver: Unmanaged<Resolver>
    @usableFromInline let number: UInt64
    @usableFromInline let serial: UInt64
    @usableFromInline let frame: Int

    init(resolver: Resolver, frame: Int) {
        self.resolver = Unmanaged.passUnretained(resolver)
        number = resolver.number
        serial = resolver.frames[frame].serial
        self.frame = frame
    }
}

/// What a synchronous read does after ``Resolver/enterObjectGraph(_:in:)`` (or the entry for its scope).
@usableFromInline
enum Entered {
    /// Hand back this instance (an object, or a ``ValueBox``): nothing is built. Retained for the
    /// getter, which takes it (``takeStored(_:scope:as:)``): the enum is trivial, and a getter has no
    /// code to destroy it.
    case instance(Unmanaged<AnyObject>)
    /// Run the body in this frame, then ``Resolver/leave(_:returning:)`` it with the instance — or
    /// ``Resolver/bodyThrew(at:)`` when the body throws.
    case build(DefinitionHandle)
}

/// The entry of every synchronous read: `define` calls it.
///
/// It is all a getter holds of the engine. A singleton this thread has read before comes from the
/// singleton line cache, inlined. Any other read is one call: for an object-graph definition or a
/// prototype without an injected object or arguments (nearly every read), of
/// ``enterObjectGraphRead(of:hash:name:place:file:type:)`` or
/// ``enterPrototypeRead(hash:name:place:file:type:of:)``, to which the getter passes the key's
/// constant parts in registers, and which make the key; else of the entry for its scope's kind with
/// the whole key, ``Resolver/enterObjectGraph(_:in:)``, ``Resolver/enterPrototype(_:in:)`` or
/// ``Resolver/enterSlowly(_:scope:in:)``. The engine decides everything — the graph, the caches,
/// other threads, overrides, observation — and either hands back an instance or gives the frame to
/// build one in; then the body runs, here, in the getter, as hand-written code would, and a second
/// call, ``Resolver/leave(_:returning:)``, finishes the frame with the instance. Neither call is
/// generic or inlined: the engine is compiled once, in the library, however many definitions a
/// program has. Most bodies throw nothing: `E` is then `Never`, and the getter has no error path at
/// all.
@usableFromInline
enum Reading {
    @inlinable
    @inline(__always)
    static func read<T, E: Error>(
        _ key: DefinitionKey,
        scope: Scope,
        of assembly: Assembly,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        // Scopes are compared with `case` patterns, which the SIL optimizer folds for a literal scope;
        // `==` would leave the comparison to LLVM, and every getter bigger until then.
        if case .singleton = scope.kind, let object = Resolver.cachedSingleton(key, in: assembly.family) {
            return unboxSingleton(object, as: T.self)
        }
        let entered: Entered
        switch scope.kind {
        case .objectGraph, .prototype:
            if key.isPassedByParts, case .objectGraph = scope.kind {
                entered = enterObjectGraphRead(
                    of: assembly,
                    hash: key.hashBits,
                    name: key.name,
                    place: key.place,
                    file: key.file,
                    type: key.type
                )
            } else if key.isPassedByParts {
                entered = enterPrototypeRead(
                    hash: key.hashBits,
                    name: key.name,
                    place: key.place,
                    file: key.file,
                    type: key.type,
                    of: assembly
                )
            } else if case .objectGraph = scope.kind {
                entered = Resolver.withCurrent { $0.enterObjectGraph(key, in: assembly.family) }
            } else {
                entered = Resolver.withCurrent { $0.enterPrototype(key, in: assembly.family) }
            }
        case .singleton, .weakSingleton, .resettable:
            entered = Resolver.withCurrent { $0.enterSlowly(key, scope: scope, in: assembly.family) }
        }
        switch entered {
        case .instance(let object):
            return takeStored(object, scope: scope, as: T.self)
        case .build(let handle):
            if !(E.self is Never.Type) {
                handle.resolver._withUnsafeGuaranteedRef { $0.bodyMayThrow(at: handle.frame) }
            }
            let result: T
            do {
                result = try body(Definition(handle, key: key))
            } catch {
                handle.resolver._withUnsafeGuaranteedRef { $0.bodyThrew(at: handle.frame) }
                throw error
            }
            leave(handle, returning: result, scope: scope)
            return result
        }
    }

    /// Leaves the frame `handle` names with `result`, as the engine keeps it: a class instance
    /// unretained (the getter holds it for the call), any other value boxed.
    @inlinable
    @inline(__always)
    static func leave<T>(_ handle: DefinitionHandle, returning result: T, scope: Scope) {
        withStored(result, scope: scope) { object in
            handle.resolver._withUnsafeGuaranteedRef { $0.leave(handle.frame, returning: object) }
        }
    }
}

/// The entry of an object-graph read of a key with no injected object and no arguments (nearly
/// every read): the getter passes the key's parts, which are constants but for the result type, in
/// registers, and the key is made here, where the thread's resolver is looked up too — code written
/// once instead of in every getter. A function, not a static method: it takes no metatype.
@usableFromInline
@inline(never)
func enterObjectGraphRead(
    of assembly: Assembly,
    hash: UInt,
    name: UnsafeRawPointer,
    place: UInt64,
    file: UInt,
    type: Any.Type
) -> Entered {
    enterRead(.objectGraph, of: assembly, hash: hash, name: name, place: place, file: file, type: type)
}

/// ``enterObjectGraphRead(of:hash:name:place:file:type:)`` for a prototype. The assembly comes last,
/// not first: the two entries would otherwise differ only in the function they call, and LLVM would
/// merge them into one that calls it through a pointer, behind two thunks.
@usableFromInline
@inline(never)
func enterPrototypeRead(
    hash: UInt,
    name: UnsafeRawPointer,
    place: UInt64,
    file: UInt,
    type: Any.Type,
    of assembly: Assembly
) -> Entered {
    enterRead(.prototype, of: assembly, hash: hash, name: name, place: place, file: file, type: type)
}

/// What both entries do, for their scope (a constant in each): make the key, find the thread's
/// resolver — the thread's first read makes it, out of line — and enter the engine.
@inline(__always)
private func enterRead(
    _ scope: Scope.Kind,
    of assembly: Assembly,
    hash: UInt,
    name: UnsafeRawPointer,
    place: UInt64,
    file: UInt,
    type: Any.Type
) -> Entered {
    let key = DefinitionKey(
        hash: hash,
        name: name,
        place: place,
        file: file,
        assembly: Swift.type(of: assembly),
        type: type
    )
    guard let address = assemblies_resolver() else {
        return enterMakingResolver(key, scope: scope, in: assembly.family)
    }
    return Unmanaged<Resolver>.fromOpaque(address)._withUnsafeGuaranteedRef {
        enter(scope, key, on: $0, in: assembly.family)
    }
}

/// Enters `key` on `resolver` in `scope`, an object graph or a prototype.
@inline(__always)
private func enter(_ scope: Scope.Kind, _ key: DefinitionKey, on resolver: Resolver, in family: Family) -> Entered {
    scope == .objectGraph
        ? enterObjectGraph(on: resolver, key, in: family) : enterPrototype(on: resolver, key, in: family)
}

/// The read of ``enterObjectGraphRead(of:hash:name:place:file:type:)`` or
/// ``enterPrototypeRead(hash:name:place:file:type:of:)`` that is its thread's first: it makes the
/// thread's resolver.
@inline(never)
private func enterMakingResolver(_ key: DefinitionKey, scope: Scope.Kind, in family: Family) -> Entered {
    Resolver.withCurrent { enter(scope, key, on: $0, in: family) }
}

/// Calls `body` with `result` as the engine keeps it, unretained: a class instance as it is (the
/// caller holds it for the call), any other value boxed, and the box kept alive for the call.
@inlinable
@inline(__always)
func withStored<T>(_ result: T, scope: Scope, _ body: (Unmanaged<AnyObject>) -> Void) {
    if isReference(T.self) {
        body(Unmanaged.passUnretained(unsafeBitCast(result, to: AnyObject.self)))
    } else {
        withBoxed(result, scope: scope, body)
    }
}

/// ``withStored(_:scope:_:)`` for a value that is not a class reference. Not inlined: a getter of a
/// class is compiled with this branch, which this keeps out of it (one copy per type of value
/// instead).
@inlinable
@inline(never)
func withBoxed<T>(_ result: T, scope: Scope, _ body: (Unmanaged<AnyObject>) -> Void) {
    let object = stored(result, scope: scope)
    body(Unmanaged.passUnretained(object))
    withExtendedLifetime(object) {}
}

extension Resolver {
    /// A singleton this thread has read before under a default key, from its line of the first-level
    /// cache: seven words compared, no call. Nil when the line holds another key, or when the read
    /// may not take the family's own singletons from the caches: the current task overrides the
    /// family, or its reads are reported (see ``readsUninterceptedOutsideTasks(_:)`` and
    /// ``readsUninterceptedHere(_:)``).
    @inlinable
    @inline(__always)
    static func cachedSingleton(_ key: DefinitionKey, in family: Family) -> AnyObject? {
        guard let address = assemblies_resolver() else { return nil }
        return Unmanaged<Resolver>.fromOpaque(address)._withUnsafeGuaranteedRef {
            if family.isIntercepted && !$0.readsUninterceptedOutsideTasks(family)
                && !$0.readsUninterceptedHere(family)
            {
                return nil
            }
            return $0.singletonCache.cached(key, in: family)
        }
    }
}

/// A value as the engine keeps it: a class instance as it is, any other value in a ``ValueBox``; for
/// a weak singleton, an existential's object (a weak singleton of any other value stops, see
/// ``Resolver/leaveSlowly(_:returning:)``).
@inlinable
@inline(__always)
func stored<T>(_ instance: T, scope: Scope) -> AnyObject {
    if isReference(T.self) { return unsafeBitCast(instance, to: AnyObject.self) }
    if case .weakSingleton = scope.kind, type(of: instance as Any) is AnyObject.Type { return instance as AnyObject }
    return ValueBox(instance)
}
