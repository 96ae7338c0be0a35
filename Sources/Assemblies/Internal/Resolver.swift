#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The per-thread resolution state: the object graph in flight, its stack of definitions being
/// built, and a cache of the singletons this thread has already read.
///
/// Each thread has its own resolver, found through a pthread key, so graphs never cross threads and
/// reading or writing them takes no lock. A resolver is only ever touched by its own thread, which
/// is why its state opts out of dynamic exclusivity checks: they would cost more than the rest of a
/// resolution.
///
/// Shared definitions (object graph, singleton) have an entry in a hash table whose keys stay from
/// one graph to the next; an entry belongs to the current graph when it carries its generation.
/// Prototypes have none (except one with an explicit key, to check the key's type and scope): a
/// prototype only needs to know whether it is read straight back from its direct dependency, which
/// the frame below the top answers. A cycle made only of prototypes is found by scanning the stack
/// each time its depth doubles past ``firstCycleCheck``.
///
/// A top-level resolution that starts while this resolver is busy with another family's graph, or
/// releasing one, runs on a spare resolver. The resolvers of a thread share one
/// ``ResolverThread``, and a spare knows the resolver it stands in for (``outer``), so a read can
/// see every graph open on its thread: a singleton that another graph of the thread is building is
/// handed out from there, never built twice.
///
/// The unsafe constructs the resolver relies on for speed, and what keeps each of them sound, are
/// listed in `Internal/UnsafeCode.md`.
@usableFromInline
final class Resolver {
    /// Unique for the life of the process: with a frame's serial, it names a frame of any thread.
    @usableFromInline let number: UInt64
    /// The thread this resolver belongs to, shared by its spares.
    let thread: ResolverThread
    /// The thread's ``StackLimit/limit`` and ``StackLimit/span``: a key's address `a` passes the
    /// read path's check when `a &- stackLimit < stackSpan`.
    @usableFromInline let stackLimit: UInt
    @usableFromInline let stackSpan: UInt

    /// Whether the stack at `key` — a local of the `define` call being pushed — is above the limit
    /// (one subtraction and one compare, on the read path).
    @inlinable
    @inline(__always)
    func hasStackRoom(at key: UnsafePointer<DefinitionKey>) -> Bool {
        UInt(bitPattern: key) &- stackLimit < stackSpan
    }
    /// ``resolverKey`` (a copy read without the lazy global's check), for ``Definition``.
    @usableFromInline let threadKey = UInt32(truncatingIfNeeded: Assemblies.resolverKey)

    // MARK: The graph in flight

    /// The family whose top-level resolution owns the graph, or 0 when no graph is open; with
    /// ``interceptedGraph`` set when the graph's task overrides the family or the family is observed.
    @usableFromInline @exclusivity(unchecked) var activeFamilyID: UInt64 = 0
    /// Set in ``activeFamilyID`` for a graph whose task overrides its family, or whose reads are
    /// reported, so that no read of the graph matches the family's ID and each goes through
    /// ``resolveIntercepted(_:scope:in:_:)``.
    @usableFromInline static let interceptedGraph: UInt64 = 1 << 63
    /// The override context of such a graph, and its singletons (which `activeStore` doesn't retain).
    @usableFromInline @exclusivity(unchecked) var activeContext: OverrideContext?
    @usableFromInline @exclusivity(unchecked) var activeContextSingletons: SingletonStore?
    /// What a graph opened while its family was observed reports its reads to.
    @usableFromInline @exclusivity(unchecked) var activeObservation: Observation?
    /// The reads being reported on this resolver, innermost last (see ``report(_:scope:to:source:_:body:)``).
    @exclusivity(unchecked) var traceFrames: [TraceFrame] = []
    /// That family, unretained: the assembly whose read opened the graph keeps it alive until the
    /// graph closes.
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var activeFamily: Family?
    @usableFromInline @exclusivity(unchecked) var isClosing = false
    /// Numbers frames, so a ``Definition`` kept past its body is recognised, and a frame is told
    /// from a later one at the same index.
    @usableFromInline @exclusivity(unchecked) var serial: UInt64 = 0
    /// Numbers graphs: an entry belongs to the current graph when it carries its generation.
    @usableFromInline @exclusivity(unchecked) var generation: UInt64 = 0
    /// The shared definitions (and explicit-keyed prototypes) this thread has read. Keys stay from
    /// one graph to the next, so a steady program looks each key up without inserting it again,
    /// until a graph ends with more than ``keyLimit`` of them.
    @usableFromInline @exclusivity(unchecked) var keys = KeyTable(capacity: 16)
    /// Parallel to `keys`.
    @usableFromInline @exclusivity(unchecked) var entries: UnsafeMutablePointer<Entry>
    /// The entries read in the current graph, whose instances to release when it ends.
    @usableFromInline @exclusivity(unchecked) var touched: UnsafeMutablePointer<Int32>
    @usableFromInline @exclusivity(unchecked) var touchedCount = 0
    @usableFromInline @exclusivity(unchecked) var touchedCapacity = 16
    /// Instances that are not class references, stored as `Any` and referred to by index.
    @exclusivity(unchecked) var values: UnsafeMutablePointer<Any>
    @exclusivity(unchecked) var valueCount = 0
    @exclusivity(unchecked) var valueCapacity = 8
    /// The definitions being built, innermost last.
    @usableFromInline @exclusivity(unchecked) var frames: UnsafeMutablePointer<Frame>
    @usableFromInline @exclusivity(unchecked) var frameCount = 0
    @usableFromInline @exclusivity(unchecked) var frameCapacity = 16
    /// The depth at which to look for a cycle made only of prototypes next.
    @usableFromInline @exclusivity(unchecked) var nextCycleCheck = Resolver.firstCycleCheck

    @usableFromInline static let firstCycleCheck = 128
    /// Past this many keys (injections key by object, so keys can keep coming), the table is
    /// emptied when a graph ends.
    static let keyLimit = 4_096

    /// A shared definition's slot in the graph.
    @usableFromInline
    struct Entry {
        @usableFromInline
        enum State: UInt8 {
            /// A prototype or a stored definition (singleton, weak singleton, resettable scope) with an
            /// explicit key, kept only to check the key's type and scope.
            case checkOnly
            /// Being built by the frame `frame`, which holds the instance once registered.
            case building
            /// Built, and shared for the rest of the graph.
            case done
        }

        @usableFromInline var scope: Scope.Kind
        @usableFromInline var state: State
        @usableFromInline var frame: Int32
        /// The index of the instance in `values` when it is not a class reference, or -1.
        @usableFromInline var value: Int32
        /// The graph the entry belongs to; an entry of an earlier graph counts as absent.
        @usableFromInline var generation: UInt64
        /// The instance when it is a class reference.
        @usableFromInline var object: AnyObject?
        /// Whether reads of the key need the checks of ``enter(_:hash:scope:)``: an explicit key
        /// (its type and scope), or a method with parameters (read twice in a graph).
        @usableFromInline var isSpecial: Bool

        @inlinable
        init(
            scope: Scope.Kind,
            state: State,
            frame: Int32,
            value: Int32,
            generation: UInt64,
            object: AnyObject?,
            isSpecial: Bool
        ) {
            self.scope = scope
            self.state = state
            self.frame = frame
            self.value = value
            self.generation = generation
            self.object = object
            self.isSpecial = isSpecial
        }
    }

    /// A definition being built, and the instance its body registered.
    @usableFromInline
    struct Frame {
        /// The key, owned by the `define` call that pushed the frame.
        @usableFromInline var key: UnsafePointer<DefinitionKey>
        /// The entry of a shared definition, or -1 for a prototype.
        @usableFromInline var entry: Int32
        @usableFromInline var scope: Scope.Kind
        @usableFromInline var value: Int32
        @usableFromInline var serial: UInt64
        @usableFromInline var object: AnyObject?

        @inlinable
        init(
            key: UnsafePointer<DefinitionKey>,
            entry: Int32,
            scope: Scope.Kind,
            value: Int32,
            serial: UInt64,
            object: AnyObject?
        ) {
            self.key = key
            self.entry = entry
            self.scope = scope
            self.value = value
            self.serial = serial
            self.object = object
        }

        @inlinable
        var hasInstance: Bool { object != nil || value >= 0 }

        /// Whether nothing was registered and no hook added (`value` is -2 when hooks were), so the
        /// frame can be dropped without ``Resolver/leave(_:returning:)``.
        @inlinable
        var isBare: Bool { object == nil && value == -1 }
    }

    /// Entries whose keys carry argument values, each with the key that keeps its values alive
    /// until the graph closes; then the table's keys drop them, so that it keeps no argument alive.
    @exclusivity(unchecked) var argumentEntries: [(index: Int32, key: StoredKey)] = []

    // MARK: Hooks

    /// A hook a definition body added, waiting for its instance to be finished.
    struct Hook {
        /// The frame's serial.
        let serial: UInt64
        /// Whether it waits for the whole graph (``Definition/afterAllInjections(_:)``).
        let isDeferred: Bool
        let run: (Any) -> Void
    }

    /// Hooks of the definitions being built, innermost last.
    @exclusivity(unchecked) var hooks: [Hook] = []
    /// `hooks.count`, read where a frame is left without touching the array.
    @usableFromInline @exclusivity(unchecked) var hookCount = 0
    /// Steps that run when the outermost definition has returned, in the order they were queued.
    @usableFromInline @exclusivity(unchecked) var deferredSteps: [() -> Void] = []

    // MARK: Singletons

    /// Where this graph finds and keeps singletons: its family's store, or an override context's.
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var activeStore: SingletonStore?
    /// The slots this resolver's frames are building, innermost last.
    @exclusivity(unchecked) var building: [(slot: SingletonSlot, store: SingletonStore, isWatched: Bool)] = []
    /// How many of them belong to a family that checks captive dependencies: while there is one,
    /// each object-graph read leaves the inlined path for ``enter(_:hash:scope:)``, which checks it
    /// (see ``checkCaptive(_:scope:)``).
    @usableFromInline @exclusivity(unchecked) var watchedStoredFrames = 0

    /// Whether a stored definition of a family that checks captive dependencies is being built. In
    /// a release build of the library nothing is checked: this is false, and costs no instruction.
    @inlinable
    @inline(__always)
    var isWatchingCaptives: Bool {
        #if DEBUG
        watchedStoredFrames != 0
        #else
        false
        #endif
    }
    /// The frame count at which ``Assembly/intentionallyCaptive(_:)`` marked a read, or -1.
    @exclusivity(unchecked) var intentionalCaptiveFrame = -1
    /// The lowest frame whose instance was handed out while still being wired (a back-reference in
    /// a cycle), or `Int.max`. A stored instance finished above such a frame may point at that
    /// unfinished instance, so it waits (see ``pending``) until the frame has finished.
    @usableFromInline @exclusivity(unchecked) var lowestHandedOut = Int.max
    /// Stored instances finished on this thread that wait for ``lowestHandedOut`` to finish.
    @exclusivity(unchecked) var pending: [Pending] = []
    /// Stored instances finished while the graph has `afterAllInjections` steps to run, waiting for
    /// them (see ``runDeferredSteps()``).
    @exclusivity(unchecked) var heldForSteps: [Pending] = []
    /// Frames of this resolver whose in-flight instances other threads took (see ``WaitRegistry``).
    @exclusivity(unchecked) var foreignHandouts: [FrameReference] = []
    /// Weak singletons built in this graph, kept alive until it closes.
    @exclusivity(unchecked) var keptAlive: [AnyObject] = []
    /// Instances that ``Assembly/reset(_:)`` dropped while this graph built them, disposed of when
    /// it closes.
    @exclusivity(unchecked) var toDispose: [AnyObject] = []

    /// A stored instance waiting to be published.
    struct Pending {
        let slot: SingletonSlot
        let store: SingletonStore
        let object: AnyObject
    }

    /// The first level of the singleton cache, for default keys only: direct-mapped by the name's
    /// address and the result type, so a read of a singleton this thread has read before compares
    /// five words and hashes nothing.
    @usableFromInline @exclusivity(unchecked) var singletonLines: UnsafeMutablePointer<SingletonLine>
    @usableFromInline static let singletonLineCount = 64

    /// A singleton this thread has read, under its default key.
    @usableFromInline
    struct SingletonLine {
        @usableFromInline var familyID: UInt64 = 0
        @usableFromInline var assemblyBits: UInt = 0
        @usableFromInline var typeBits: UInt = 0
        @usableFromInline var argumentBits: UInt = 0
        @usableFromInline var name: UnsafeRawPointer? = nil
        @usableFromInline var line: UInt = 0
        @usableFromInline var file: UInt = 0
        /// Unretained, like the second-level cache.
        @usableFromInline var object: Unmanaged<AnyObject>? = nil
    }

    /// The first-level line for `key`.
    @inlinable
    func singletonLine(for key: UnsafePointer<DefinitionKey>) -> UnsafeMutablePointer<SingletonLine> {
        let index =
            (UInt(bitPattern: key.pointee.name) >> 3 ^ key.pointee.typeBits >> 4 ^ key.pointee.line)
            & UInt(Self.singletonLineCount - 1)
        return singletonLines + Int(index)
    }

    /// The second level: every singleton this thread has read in one family (the last one it read
    /// a singleton from), by key.
    @usableFromInline @exclusivity(unchecked) var cacheFamilyID: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var cacheKeys = KeyTable(capacity: 8)
    /// Unretained: the family keeps its singletons alive, and the cache is only read for a family
    /// that a live assembly holds (``cacheFamilyID`` is unique per family).
    @usableFromInline @exclusivity(unchecked) var cacheObjects: UnsafeMutablePointer<Unmanaged<AnyObject>>
    /// Keeps the arguments of the keys in `cacheKeys` that have some.
    @exclusivity(unchecked) var cacheArguments: [StoredKey] = []

    // MARK: Other state

    /// A key path being evaluated to learn which definition it names (see ``OverrideCapture``).
    @usableFromInline var pendingCapture: OverrideCapture?

    /// The family a collaborator being created joins (see ``makeAssembly(_:in:)``).
    var pendingFamily: Family?
    var pendingType: ObjectIdentifier?
    /// The configuration a root being created with `init(configuration:)` gives its family.
    var pendingConfiguration: FamilyConfiguration?
    var pendingConfigurationType: ObjectIdentifier?
    /// A resolver for a top-level resolution that starts while this one is busy with another family.
    var spare: Resolver?
    /// For a spare resolver: the resolver it stands in for (which owns it), and the read that
    /// crossed over.
    unowned var outer: Resolver?
    var crossingKey: StoredKey?
    /// How many resolutions of other families this one is nested in.
    var crossings = 0
    /// Beyond this many nested crossings between families, a resolution is a cycle that can't close.
    static let crossingLimit = 32

    private static let lastNumber = Locked<UInt64>(0)

    /// A resolver for `thread`; a new thread when nil.
    init(thread: ResolverThread? = nil) {
        number = Self.lastNumber.withLock { last in
            last += 1
            return last
        }
        let thread = thread ?? ResolverThread()
        self.thread = thread
        stackLimit = thread.stack.limit
        stackSpan = thread.stack.span
        entries = .allocate(capacity: keys.capacity)
        touched = .allocate(capacity: touchedCapacity)
        values = .allocate(capacity: valueCapacity)
        frames = .allocate(capacity: frameCapacity)
        cacheObjects = .allocate(capacity: cacheKeys.capacity)
        singletonLines = .allocate(capacity: Self.singletonLineCount)
        singletonLines.initialize(repeating: SingletonLine(), count: Self.singletonLineCount)
    }

    deinit {
        entries.deinitialize(count: keys.count)
        keys.deallocate()
        entries.deallocate()
        touched.deallocate()
        values.deallocate()
        frames.deallocate()
        cacheKeys.deallocate()
        cacheObjects.deallocate()
        singletonLines.deallocate()
    }

    // MARK: Finding the current resolver

    /// Calls `body` with this thread's resolver, without retaining it.
    ///
    /// - Parameter key: ``resolverKey``, passed in by callers that have it at hand without the
    ///   lazy-global check that reading the global costs.
    @inlinable
    @inline(__always)
    static func withCurrent<Result>(key: pthread_key_t = resolverKey, _ body: (Resolver) -> Result) -> Result {
        // One call of `body`, so that inlining it into a getter doesn't copy it.
        let raw = pthread_getspecific(key) ?? makeCurrent()
        return Unmanaged<Resolver>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// Makes this thread's resolver, the first time the thread resolves anything.
    @usableFromInline
    static func makeCurrent() -> UnsafeMutableRawPointer {
        // Balanced by the key's destructor when the thread exits.
        let raw = Unmanaged.passRetained(Resolver()).toOpaque()
        pthread_setspecific(resolverKey, raw)
        return raw
    }
}

/// The pthread key under which each thread keeps its ``Resolver``.
@usableFromInline
let resolverKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let result = pthread_key_create(&key) { raw in
        Unmanaged<Resolver>.fromOpaque(raw).release()
    }
    #else
    let result = pthread_key_create(&key) { raw in
        if let raw { Unmanaged<Resolver>.fromOpaque(raw).release() }
    }
    #endif
    precondition(result == 0, "Assemblies: pthread_key_create failed with \(result)")
    return key
}()

/// The entry of every read: `define` calls it.
///
/// Every path is generic over the error `E` a body throws. Most bodies throw nothing: `E` is then
/// `Never`, and the specialized code has no error path at all. When a body throws, the frame it was
/// building is undone (see ``Resolver/bodyThrew(at:)``) and the error goes on to the caller.
@usableFromInline
enum Reading {
    #if DEBUG
    /// Resolves one read of a definition on this thread's resolver.
    ///
    /// In a debug build, where nothing is inlined, this is transparent and works on a strong
    /// reference rather than in `_withUnsafeGuaranteedRef`'s closure: fewer and smaller frames stay
    /// on the stack while a body runs, for each level of a deep graph.
    @_transparent
    @usableFromInline
    static func read<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let raw = pthread_getspecific(family.resolverKey) ?? Resolver.makeCurrent()
        return try resolve(
            key,
            scope: scope,
            in: family,
            on: Unmanaged<Resolver>.fromOpaque(raw).takeUnretainedValue(),
            body
        )
    }
    #else
    /// Resolves one read of a definition on this thread's resolver, without retaining it.
    @inlinable
    @inline(__always)
    static func read<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let raw = pthread_getspecific(family.resolverKey) ?? Resolver.makeCurrent()
        // `_withUnsafeGuaranteedRef` rethrows untyped errors, so a typed one is carried out of it
        // in a variable; with `E == Never` there is none, and no code for it.
        var failure: E?
        let result: T? = Unmanaged<Resolver>.fromOpaque(raw)._withUnsafeGuaranteedRef { resolver in
            do throws(E) {
                return try resolve(key, scope: scope, in: family, on: resolver, body)
            } catch {
                failure = error
                return nil
            }
        }
        if E.self != Never.self, let failure { throw failure }
        return result.unsafelyUnwrapped
    }
    #endif

    /// Resolves one read of a definition on `resolver`.
    ///
    /// Overrides cost the common paths nothing but one check before the singleton caches (which
    /// hold the family's own singletons, never a task's): a top-level read checks for them out of
    /// line, and a graph opened while its task overrides the family carries
    /// ``Resolver/interceptedGraph`` in ``Resolver/activeFamilyID``, so that each of its reads takes
    /// that out-of-line path too.
    @_transparent
    @usableFromInline
    static func resolve<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        on resolver: Resolver,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        if scope.kind == .singleton && !family.isIntercepted, let object = resolver.cachedSingleton(key, in: family) {
            return unboxSingleton(object, as: T.self)
        }
        if resolver.activeFamilyID != family.id {
            return try topLevel(key, scope: scope, in: family, on: resolver, body)
        }
        return try inGraph(key, scope: scope, on: resolver, body)
    }

    /// A top-level read on `resolver`: ``Resolver/resolveTopLevel(_:scope:in:failure:_:)``, out of
    /// line, and the error it hands back thrown again. With `E == Never` there is none to throw.
    @_transparent
    @usableFromInline
    static func topLevel<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        on resolver: Resolver,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        var failure: E?
        let result = resolver.resolveTopLevel(key, scope: scope, in: family, failure: &failure, body)
        if E.self != Never.self, let failure { throw failure }
        return result.unsafelyUnwrapped
    }

    /// Resolves a read in the graph open on `resolver`.
    @_transparent
    @usableFromInline
    static func inGraph<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        on resolver: Resolver,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        switch scope.kind {
        case .objectGraph: return try shared(key, scope: .objectGraph, on: resolver, body)
        case .prototype: return try prototype(key, on: resolver, body)
        // Out of line: in a debug build, its locals would otherwise enlarge the frame of every read.
        case .singleton, .weakSingleton, .resettable:
            var failure: E?
            let result = resolver.resolveStored(key, scope: scope, failure: &failure, body)
            if E.self != Never.self, let failure { throw failure }
            return result.unsafelyUnwrapped
        }
    }

    /// Resolves a shared (object-graph) definition: see ``Resolver/enterShared(_:scope:)``.
    @_transparent
    @usableFromInline
    static func shared<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope.Kind,
        on resolver: Resolver,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let step = resolver.enterShared(key, scope: scope)
        if step < 0 {
            return resolver.reused(~step, as: T.self, for: key)
        }
        let result: T
        do {
            result = try body(Definition(resolver: resolver, frame: step, serial: resolver.serial))
        } catch {
            resolver.bodyThrew(at: step)
            throw error
        }
        resolver.leaveShared(step, returning: result)
        return result
    }

    /// Resolves a prototype: see ``Resolver/enterPrototype(_:)``.
    @_transparent
    @usableFromInline
    static func prototype<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        on resolver: Resolver,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        let frame = resolver.enterPrototype(key)
        if frame < 0 {
            return resolver.reused(~frame, as: T.self, for: key)
        }
        let result: T
        do {
            result = try body(Definition(resolver: resolver, frame: frame, serial: resolver.serial))
        } catch {
            resolver.bodyThrew(at: frame)
            throw error
        }
        resolver.leavePrototype(frame, returning: result)
        return result
    }

    /// Reads a stored definition (singleton, weak singleton, resettable scope) from the graph's
    /// store, or builds it in the slot this read claimed (see ``Resolver/claimStored(_:scope:)``).
    /// It runs out of line (``Resolver/resolveStored(_:scope:failure:_:)``), so the body's error
    /// comes back in `failure`, with nil.
    @_transparent
    @usableFromInline
    static func stored<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        on resolver: Resolver,
        failure: inout E?,
        _ body: (Definition<T>) throws(E) -> T
    ) -> T? {
        let (object, slot) = resolver.claimStored(key, scope: scope)
        guard let slot else {
            return unboxStored(object.unsafelyUnwrapped, scope: scope, as: T.self)
        }
        let step = resolver.startBuilding(slot, key, scope: scope)
        let result: T
        do {
            result = try body(Definition(resolver: resolver, frame: step, serial: resolver.serial))
        } catch {
            resolver.bodyThrew(at: step)
            failure = error
            return nil
        }
        let finished = scope.kind == .weakSingleton ? weaklyHeld(result, key.pointee) : boxSingleton(result)
        resolver.bodyReturned(finished, in: slot)
        resolver.leave(step, returning: result)
        resolver.finishBuilding(slot, finished)
        return result
    }
}
