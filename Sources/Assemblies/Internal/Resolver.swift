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
/// Shared definitions (object graph, singleton) have an entry in a hash table for the life of the
/// graph. Prototypes have none: a prototype only ever needs to know whether it is read straight
/// back from its direct dependency, which the frame below the top answers.
@usableFromInline
final class Resolver {
    // MARK: The graph in flight

    /// The family whose top-level resolution owns the graph, or 0 when no graph is open.
    @usableFromInline @exclusivity(unchecked) var activeFamilyID: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var isClosing = false
    /// Numbers frames, so a ``Definition`` kept past its body is recognised.
    @usableFromInline @exclusivity(unchecked) var serial: UInt64 = 0
    /// Numbers graphs: an entry belongs to the current graph when it carries its generation.
    @usableFromInline @exclusivity(unchecked) var generation: UInt64 = 0
    /// The shared definitions this thread has read. Keys stay from one graph to the next, so a
    /// steady program looks each key up without inserting it again.
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
            /// A prototype with an explicit key, kept only to check the key's type and scope.
            case prototype
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
    }

    // MARK: Singletons

    /// How many singleton bodies are running on this thread.
    @exclusivity(unchecked) var singletonDepth = 0
    /// Singletons built since the outermost singleton body started. They are published together
    /// when it returns: a singleton built inside a cycle may point at one still being wired, and no
    /// other thread may see either before both are done.
    @exclusivity(unchecked) var unpublishedSingletons: [(key: DefinitionKey, object: AnyObject)] = []
    /// The first level of the singleton cache: direct-mapped by the name's address, so a read of a
    /// singleton this thread has read before compares five words and hashes nothing.
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
        /// Unretained, like the second-level cache.
        @usableFromInline var object: Unmanaged<AnyObject>? = nil
    }

    /// The first-level line for `key`.
    @inlinable
    func singletonLine(for key: DefinitionKey) -> UnsafeMutablePointer<SingletonLine> {
        let index = (UInt(bitPattern: key.name) >> 3 ^ key.typeBits >> 4) & UInt(Self.singletonLineCount - 1)
        return singletonLines + Int(index)
    }

    /// The second level: every singleton this thread has read in one family, by key.
    @usableFromInline @exclusivity(unchecked) var cacheFamilyID: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var cacheKeys = KeyTable(capacity: 8)
    /// Unretained: the family keeps its singletons alive, and the cache is only read for a family
    /// that a live assembly holds (``cacheFamilyID`` is unique per family).
    @usableFromInline @exclusivity(unchecked) var cacheObjects: UnsafeMutablePointer<Unmanaged<AnyObject>>

    // MARK: Other state

    /// The family a collaborator being created joins (see ``makeAssembly(_:in:)``).
    private var pendingFamily: Family?
    private var pendingType: ObjectIdentifier?
    /// A resolver for a top-level resolution that starts while this one is busy with another family.
    private var spare: Resolver?

    init() {
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

    // MARK: Resolving

    /// Resolves one read of a definition.
    @inlinable
    @inline(__always)
    func resolve<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if scope.kind == .singleton {
            // The common case, inlined: a default-keyed singleton this thread has read before.
            let line = singletonLine(for: key)
            if line.pointee.familyID == family.id && line.pointee.name == key.name
                && line.pointee.typeBits == key.typeBits && line.pointee.assemblyBits == key.assemblyBits
                && line.pointee.argumentBits == key.argumentBits, let object = line.pointee.object
            {
                return unboxSingleton(object.takeUnretainedValue(), as: T.self)
            }
            if let cached = cachedSingletonObject(key, in: family) {
                return unboxSingleton(cached, as: T.self)
            }
        }
        if activeFamilyID != family.id {
            return resolveTopLevel(key, scope: scope, in: family, body)
        }
        return resolveInGraph(key, scope: scope, in: family, body)
    }

    @inlinable
    @inline(never)
    func resolveTopLevel<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if activeFamilyID != 0 || isClosing {
            return withSpare { $0.resolveTopLevel(key, scope: scope, in: family, body) }
        }
        activeFamilyID = family.id
        generation &+= 1
        let result = resolveInGraph(key, scope: scope, in: family, body)
        closeGraph()
        return result
    }

    @inlinable
    @inline(__always)
    func resolveInGraph<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if scope.kind == .singleton {
            return buildSingleton(key, in: family, body)
        }
        if scope.kind == .prototype {
            return resolvePrototype(key, body)
        }
        return resolveShared(key, scope: scope.kind, body)
    }

    /// Resolves an object-graph definition. The two common cases are inlined into the caller: the
    /// instance is already in this graph, or a definition this thread has read before is read for
    /// the first time in this graph. Everything else goes through ``enter(_:hash:scope:)``.
    @inlinable
    @inline(__always)
    func resolveShared<T>(_ key: DefinitionKey, scope: Scope.Kind, _ body: (Definition<T>) -> T) -> T {
        let hash = key.hashBits
        return withUnsafePointer(to: key) { key in
            // One call of `enter` for every case the fast path leaves, to keep each getter small.
            var step = 0
            var isFast = false
            let (found, _) = keys.find(key, hash: hash)
            if found >= 0 && !entries[found].isSpecial && scope == .objectGraph {
                let entry = entries + found
                if entry.pointee.generation == generation {
                    if entry.pointee.state == .done {
                        (step, isFast) = (~(found << 1 | 1), true)
                    } else if frames[Int(entry.pointee.frame)].hasInstance {
                        // A back-reference to an instance being wired.
                        (step, isFast) = (~(Int(entry.pointee.frame) << 1), true)
                    }
                } else if touchedCount < touchedCapacity && frameCount < frameCapacity
                    && frameCount + 1 != nextCycleCheck
                {
                    entry.pointee.generation = generation
                    entry.pointee.scope = scope
                    entry.pointee.state = .building
                    entry.pointee.value = -1
                    touched[touchedCount] = Int32(found)
                    touchedCount += 1
                    serial &+= 1
                    step = frameCount
                    (frames + step).initialize(
                        to: Frame(key: key, entry: Int32(found), scope: scope, value: -1, serial: serial, object: nil)
                    )
                    entry.pointee.frame = Int32(step)
                    frameCount = step + 1
                    isFast = true
                }
            }
            if !isFast {
                step = enter(key, hash: hash, scope: scope)
            }
            if step < 0 {
                return reused(~step, as: T.self)
            }
            let result = body(Definition(resolver: self, frame: step, serial: serial))
            if isReference(T.self) && !frames[step].hasInstance {
                frameCount = step
                let entry = entries + Int(frames[step].entry)
                (frames + step).deinitialize(count: 1)
                entry.pointee.state = .done
                entry.pointee.object = unsafeBitCast(result, to: AnyObject.self)
            } else {
                leave(step, returning: result)
            }
            return result
        }
    }

    /// A prototype builds a new instance, except when it is read straight back from one of its
    /// direct dependencies while it is being wired: then it is that instance.
    @inlinable
    @inline(__always)
    func resolvePrototype<T>(_ key: DefinitionKey, _ body: (Definition<T>) -> T) -> T {
        withUnsafePointer(to: key) { key in
            let top = frameCount - 1
            if key.pointee.isExplicit || (top >= 0 && DefinitionKey.same(frames[top].key, key)) {
                checkPrototypeRead(key)
            }
            if top >= 1 && DefinitionKey.same(frames[top - 1].key, key) {
                return reused(backReference(to: top - 1, key), as: T.self)
            }
            if frameCount == frameCapacity || frameCount + 1 == nextCycleCheck {
                prepareToPushDeeper()
            }
            serial &+= 1
            let frame = frameCount
            (frames + frame).initialize(
                to: Frame(key: key, entry: -1, scope: .prototype, value: -1, serial: serial, object: nil)
            )
            frameCount = frame + 1
            let result = body(Definition(resolver: self, frame: frame, serial: serial))
            frameCount = frame
            if frames[frame].hasInstance {
                leave(frame, returning: result)
            } else {
                (frames + frame).deinitialize(count: 1)
            }
            return result
        }
    }

    @usableFromInline
    func buildSingleton<T>(_ key: DefinitionKey, in family: Family, _ body: (Definition<T>) -> T) -> T {
        singletonBuilder.lock()
        defer { singletonBuilder.unlock() }
        if let built = family.singleton(for: key) {
            return unboxSingleton(checked(built, key), as: T.self)
        }
        if key.isMethodWithParameters { Failure.singletonMethodWithParameters(key) }
        return withUnsafePointer(to: key) { keyPointer in
            let step = enter(keyPointer, hash: key.hashBits, scope: .singleton)
            if step < 0 {
                return reused(~step, as: T.self)
            }
            singletonDepth += 1
            let result = body(Definition(resolver: self, frame: step, serial: serial))
            leave(step, returning: result)
            singletonDepth -= 1
            unpublishedSingletons.append((key, boxSingleton(result)))
            if singletonDepth == 0 {
                family.publish(unpublishedSingletons)
                unpublishedSingletons.removeAll(keepingCapacity: true)
            }
            return result
        }
    }

    /// The object of a singleton already built for `family` (see ``boxSingleton(_:)``), from this
    /// thread's cache or, the first time, from the family.
    @usableFromInline
    func cachedSingletonObject(_ key: DefinitionKey, in family: Family) -> AnyObject? {
        let hash = key.hashBits
        if cacheFamilyID == family.id {
            let (index, _) = cacheKeys.find(key, hash: hash)
            if index >= 0 {
                if key.isExplicit && ObjectIdentifier(cacheKeys.keys[index].type) != ObjectIdentifier(key.type) {
                    Failure.explicitKeyTypeMismatch(key, first: cacheKeys.keys[index])
                }
                fillSingletonLine(for: key, in: family, with: cacheObjects[index])
                return cacheObjects[index].takeUnretainedValue()
            }
        }
        guard let built = family.singleton(for: key) else { return nil }
        let object = checked(built, key)
        if cacheFamilyID != family.id {
            cacheKeys.removeAll()
            cacheFamilyID = family.id
        }
        if cacheKeys.isFull {
            cacheKeys.grow()
            let grown = UnsafeMutablePointer<Unmanaged<AnyObject>>.allocate(capacity: cacheKeys.capacity)
            grown.moveInitialize(from: cacheObjects, count: cacheKeys.count)
            cacheObjects.deallocate()
            cacheObjects = grown
        }
        let (_, slot) = cacheKeys.find(key, hash: hash)
        let index = withUnsafePointer(to: built.key) { cacheKeys.insert($0, hash: hash, slot: slot) }
        cacheObjects[index] = Unmanaged.passUnretained(object)
        fillSingletonLine(for: key, in: family, with: cacheObjects[index])
        return object
    }

    private func fillSingletonLine(for key: DefinitionKey, in family: Family, with object: Unmanaged<AnyObject>) {
        guard !key.isExplicit else { return }  // an explicit key's reads check its type each time
        singletonLine(for: key).pointee = SingletonLine(
            familyID: family.id,
            assemblyBits: key.assemblyBits,
            typeBits: key.typeBits,
            argumentBits: key.argumentBits,
            name: key.name,
            object: object
        )
    }

    /// The singleton's object, once `key` is known to read it as the type it was built as.
    func checked(_ singleton: Family.Singleton, _ key: DefinitionKey) -> AnyObject {
        if key.isExplicit && ObjectIdentifier(singleton.key.type) != ObjectIdentifier(key.type) {
            Failure.explicitKeyTypeMismatch(key, first: singleton.key)
        }
        return singleton.object
    }

    // MARK: The graph's lifetime

    /// Ends the graph: the resolver keeps none of its instances.
    @usableFromInline
    func closeGraph() {
        // Releasing instances runs their deinit, which may read assemblies again: that starts a new
        // top-level resolution on the spare resolver.
        isClosing = true
        activeFamilyID = 0
        for index in 0..<touchedCount {
            entries[Int(touched[index])].object = nil
        }
        touchedCount = 0
        values.deinitialize(count: valueCount)
        valueCount = 0
        nextCycleCheck = Self.firstCycleCheck
        if keys.count > Self.keyLimit {
            entries.deinitialize(count: keys.count)
            keys.removeAll()
        }
        isClosing = false
    }

    @usableFromInline
    func withSpare<Result>(_ body: (Resolver) -> Result) -> Result {
        let spare = self.spare ?? Resolver()
        self.spare = nil
        let raw = pthread_getspecific(resolverKey)
        pthread_setspecific(resolverKey, Unmanaged.passUnretained(spare).toOpaque())
        let result = body(spare)
        pthread_setspecific(resolverKey, raw)
        self.spare = spare
        return result
    }

    // MARK: Instances

    /// An instance to hand back again, found by ``enter(_:scope:)``, as the `T` it was stored as.
    @inlinable
    func reused<T>(_ source: Int, as _: T.Type) -> T {
        if isReference(T.self) {
            return unsafeBitCast(reusedObject(source).unsafelyUnwrapped, to: T.self)
        }
        return reusedValue(source) as! T
    }

    /// `source` is `index << 1 | 1` for an entry's built instance, `frame << 1` for one being wired.
    @usableFromInline
    func reusedObject(_ source: Int) -> AnyObject? {
        source & 1 == 1 ? entries[source >> 1].object : frames[source >> 1].object
    }

    @usableFromInline
    func reusedValue(_ source: Int) -> Any {
        values[Int(source & 1 == 1 ? entries[source >> 1].value : frames[source >> 1].value)]
    }

    /// Stores a value that is not a class reference for the rest of the graph; returns its index.
    @usableFromInline
    func store(_ value: Any) -> Int32 {
        if valueCount == valueCapacity {
            let grown = UnsafeMutablePointer<Any>.allocate(capacity: valueCapacity * 2)
            grown.moveInitialize(from: values, count: valueCount)
            values.deallocate()
            values = grown
            valueCapacity *= 2
        }
        (values + valueCount).initialize(to: value)
        valueCount += 1
        return Int32(valueCount - 1)
    }

    private func identity(of object: AnyObject?, value: Int32) -> ObjectIdentifier? {
        if let object { return ObjectIdentifier(object) }
        return value >= 0 ? Assemblies.identity(of: values[Int(value)]) : nil
    }

    // MARK: Entering and leaving definitions

    /// Decides what a read of a shared definition does in the current graph. Returns the index of a new frame to
    /// build it in, or the complement (`~source`) of an instance to hand back again (see
    /// ``reusedObject(_:)``). Stops with a precise message when the read can't be served.
    @usableFromInline
    func enter(_ key: UnsafePointer<DefinitionKey>, hash: UInt, scope: Scope.Kind) -> Int {
        let found = entry(for: key, hash: hash, scope: scope)
        let entry = entries + found
        if entry.pointee.state == .building && entry.pointee.frame < 0 {
            return push(key, entry: found, scope: scope)
        }
        if key.pointee.isExplicit {
            checkExplicitKey(key.pointee, at: found, scope: scope)
        }
        let isMethodWithParameters = entry.pointee.isSpecial && key.pointee.isMethodWithParameters
        if entry.pointee.state == .done {
            if isMethodWithParameters { Failure.methodReadTwice(key.pointee) }
            return ~(found << 1 | 1)
        }
        let frame = Int(entry.pointee.frame)
        if !frames[frame].hasInstance {
            Failure.initializerCycle(chain(from: frame, to: key.pointee))
        }
        if isMethodWithParameters { Failure.methodReadTwice(key.pointee) }
        return ~(frame << 1)
    }

    /// The index of `key`'s entry in the current graph. An entry first read in this graph is
    /// returned as `.building` with no frame, in `scope` (or `.prototype` state for a prototype).
    private func entry(for key: UnsafePointer<DefinitionKey>, hash: UInt, scope: Scope.Kind) -> Int {
        var (found, slot) = keys.find(key, hash: hash)
        if found < 0 {
            if keys.isFull {
                growEntries()
                slot = keys.find(key, hash: hash).slot
            }
            found = keys.insert(key, hash: hash, slot: slot)
            (entries + found).initialize(
                to: Entry(
                    scope: scope,
                    state: .done,
                    frame: -1,
                    value: -1,
                    generation: 0,
                    object: nil,
                    isSpecial: key.pointee.isExplicit || key.pointee.isMethodWithParameters
                )
            )
        }
        let entry = entries + found
        if entry.pointee.generation != generation {
            entry.pointee.generation = generation
            entry.pointee.scope = scope
            entry.pointee.state = scope == .prototype ? .prototype : .building
            entry.pointee.frame = -1
            entry.pointee.value = -1
            if key.pointee.isExplicit {
                keys.replaceKey(at: found, with: key)
            }
            if touchedCount == touchedCapacity {
                let grown = UnsafeMutablePointer<Int32>.allocate(capacity: touchedCapacity * 2)
                grown.moveInitialize(from: touched, count: touchedCount)
                touched.deallocate()
                touched = grown
                touchedCapacity *= 2
            }
            touched[touchedCount] = Int32(found)
            touchedCount += 1
        }
        return found
    }

    /// Checks a prototype read that may be misuse: an explicit key, or a prototype reading itself.
    @usableFromInline
    func checkPrototypeRead(_ key: UnsafePointer<DefinitionKey>) {
        if key.pointee.isExplicit { checkExplicitPrototypeKey(key) }
        let top = frameCount - 1
        if top >= 0 && DefinitionKey.same(frames[top].key, key) {
            // Reading itself: every new instance would read itself again.
            if frames[top].hasInstance {
                Failure.prototypeCycle(chain(from: top, to: key.pointee))
            }
            Failure.initializerCycle(chain(from: top, to: key.pointee))
        }
    }

    /// The source of the in-flight instance a back-reference gets; it must have been registered.
    @usableFromInline
    func backReference(to frame: Int, _ key: UnsafePointer<DefinitionKey>) -> Int {
        if !frames[frame].hasInstance {
            Failure.initializerCycle(chain(from: frame, to: key.pointee))
        }
        return frame << 1
    }

    /// Makes room for one more frame, and looks for a cycle of prototypes at each doubling depth.
    @usableFromInline
    func prepareToPushDeeper() {
        if frameCount == frameCapacity {
            let grown = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
            grown.moveInitialize(from: frames, count: frameCount)
            frames.deallocate()
            frames = grown
            frameCapacity *= 2
        }
        if frameCount + 1 == nextCycleCheck {
            checkForPrototypeCycle()
        }
    }

    private func push(_ key: UnsafePointer<DefinitionKey>, entry: Int, scope: Scope.Kind) -> Int {
        if frameCount == frameCapacity || frameCount + 1 == nextCycleCheck {
            prepareToPushDeeper()
        }
        serial &+= 1
        let index = frameCount
        (frames + index).initialize(
            to: Frame(key: key, entry: Int32(entry), scope: scope, value: -1, serial: serial, object: nil)
        )
        entries[entry].frame = Int32(index)
        frameCount += 1
        return index
    }

    /// A cycle made only of prototypes builds new instances forever, so the stack keeps growing.
    /// Each time it doubles past ``firstCycleCheck``, look for the top definition further down with
    /// only prototypes in between.
    private func checkForPrototypeCycle() {
        nextCycleCheck *= 2
        let top = frameCount - 1
        var frame = top - 1
        while frame >= 0 && frames[frame + 1].scope == .prototype {
            if frames[frame].key.pointee.matches(frames[top].key.pointee) {
                // Report the cycle from where it was first entered.
                let period = top - frame
                var start = frame
                while start > 0 && frames[start - 1].key.pointee.matches(frames[start - 1 + period].key.pointee) {
                    start -= 1
                }
                Failure.prototypeCycle((start...(start + period)).map { frames[$0].key.pointee })
            }
            frame -= 1
        }
    }

    /// Finishes building the frame at `index` with the instance its body returned.
    @inlinable
    func leave<T>(_ frame: Int, returning result: T) {
        if isReference(T.self) {
            leave(frame, object: unsafeBitCast(result, to: AnyObject.self), value: -1)
        } else {
            leave(frame, object: nil, value: isPrototype(frame) ? -1 : store(result))
        }
    }

    @usableFromInline
    func isPrototype(_ frame: Int) -> Bool {
        frames[frame].scope == .prototype
    }

    @usableFromInline
    func leave(_ index: Int, object: AnyObject?, value: Int32) {
        frameCount = index
        var frame = (frames + index).move()
        if frame.hasInstance && (object != nil || value >= 0) {
            let same =
                object != nil
                ? frame.object === object
                : identity(of: frame.object, value: frame.value) == identity(of: nil, value: value)
            if !same { Failure.returnedOtherObject(frame.key.pointee) }
        }
        if frame.entry >= 0 {
            let entry = entries + Int(frame.entry)
            entry.pointee.state = .done
            entry.pointee.value = value
            // The frame's reference to a registered object moves to the entry: no extra retain,
            // which matters for objects with weak references, whose counts live in a side table.
            entry.pointee.object = frame.object != nil ? frame.object.take() : object
        }
    }

    /// Puts `instance` into the graph as the instance of the frame a ``Definition`` belongs to.
    @inlinable
    func register<T>(_ instance: T, frame: Int, serial: UInt64) {
        if isReference(T.self) {
            register(object: unsafeBitCast(instance, to: AnyObject.self), value: -1, frame: frame, serial: serial)
        } else {
            register(object: nil, value: store(instance), frame: frame, serial: serial)
        }
    }

    @usableFromInline
    func register(object: AnyObject?, value: Int32, frame index: Int, serial: UInt64) {
        guard index < frameCount, frames[index].serial == serial else {
            Failure.definitionUsedOutsideItsBody()
        }
        let frame = frames + index
        if frame.pointee.hasInstance {
            let registered = identity(of: frame.pointee.object, value: frame.pointee.value)
            if registered == nil || registered != identity(of: object, value: value) {
                Failure.registeredTwice(frame.pointee.key.pointee)
            }
        }
        frame.pointee.object = object
        frame.pointee.value = value
    }

    @usableFromInline
    func key(ofFrame index: Int) -> DefinitionKey { frames[index].key.pointee }

    private func growEntries() {
        let count = keys.count
        keys.grow()
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: keys.capacity)
        grown.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = grown
    }

    /// The definitions from `frame` to the top of the stack, then `key` read again.
    private func chain(from frame: Int, to key: DefinitionKey) -> [DefinitionKey] {
        (frame..<frameCount).map { frames[$0].key.pointee } + [key]
    }

    private func checkExplicitKey(_ key: DefinitionKey, at index: Int, scope: Scope.Kind) {
        let first = keys.keys[index]
        if ObjectIdentifier(first.type) != ObjectIdentifier(key.type) {
            Failure.explicitKeyTypeMismatch(key, first: first)
        }
        if entries[index].scope != scope {
            Failure.explicitKeyScopeMismatch(key, first: first, firstScope: entries[index].scope, scope: scope)
        }
    }

    /// An explicit key names one slot whatever its scope, so a prototype's is checked like the others'.
    private func checkExplicitPrototypeKey(_ key: UnsafePointer<DefinitionKey>) {
        let found = entry(for: key, hash: key.pointee.hashBits, scope: .prototype)
        checkExplicitKey(key.pointee, at: found, scope: .prototype)
    }

    // MARK: Existing objects

    /// Every instance of the current graph of `family` that lookups may see: object-graph instances,
    /// and instances still being wired, of any scope.
    func visibleInstances(in family: Family) -> [(key: DefinitionKey, instance: Any)] {
        guard activeFamilyID == family.id else { return [] }
        var visible: [(key: DefinitionKey, instance: Any)] = []
        func add(_ key: DefinitionKey, _ object: AnyObject?, _ value: Int32) {
            if let object {
                visible.append((key, object))
            } else if value >= 0 {
                visible.append((key, values[Int(value)]))
            }
        }
        for touchedIndex in 0..<touchedCount {
            let index = Int(touched[touchedIndex])
            if entries[index].state == .done && entries[index].scope == .objectGraph {
                add(keys.keys[index], entries[index].object, entries[index].value)
            }
        }
        for frame in 0..<frameCount {
            add(frames[frame].key.pointee, frames[frame].object, frames[frame].value)
        }
        return visible
    }

    func existingObject<T>(matching _: T.Type, in family: Family) -> T? {
        var match: (value: T, identity: ObjectIdentifier?)?
        var candidates: [DefinitionKey] = []
        for (key, instance) in visibleInstances(in: family) {
            guard let value = instance as? T else { continue }
            let identity = Assemblies.identity(of: instance)
            if let match, match.identity != nil, match.identity == identity { continue }
            candidates.append(key)
            if match == nil { match = (value, identity) }
        }
        if candidates.count > 1 { Failure.ambiguousMatch(T.self, candidates: candidates) }
        return match?.value
    }

    func existingObject<T>(withKey key: DefinitionKey, as _: T.Type, in family: Family) -> T? {
        guard activeFamilyID == family.id else { return nil }
        let (index, _) = keys.find(key, hash: key.hashBits)
        guard index >= 0, entries[index].generation == generation else { return nil }
        let first = keys.keys[index]
        if ObjectIdentifier(first.type) != ObjectIdentifier(T.self) {
            Failure.explicitKeyTypeMismatch(key, first: first)
        }
        let visible = visibleInstances(in: family).last { $0.key.matches(key) }
        return visible.map { $0.instance as! T }
    }

    // MARK: Collaborators

    /// Creates an assembly that joins `family` rather than starting a family of its own.
    func makeAssembly<A: Assembly>(_ type: A.Type, in family: Family) -> A {
        let outerFamily = pendingFamily
        let outerType = pendingType
        pendingFamily = family
        pendingType = ObjectIdentifier(type)
        let assembly = type.init()
        pendingFamily = outerFamily
        pendingType = outerType
        return assembly
    }

    /// The family that an assembly of `type` being created joins, if a family is creating it.
    func takePendingFamily(for type: Assembly.Type) -> Family? {
        guard pendingType == ObjectIdentifier(type), let family = pendingFamily else { return nil }
        pendingFamily = nil
        pendingType = nil
        return family
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
