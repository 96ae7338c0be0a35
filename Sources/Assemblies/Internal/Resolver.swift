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
/// reading or writing them takes no lock. A resolver is only ever touched by its own thread.
@usableFromInline
final class Resolver {
    // MARK: The graph in flight

    /// The family whose top-level resolution owns the graph, or 0 when no graph is open.
    @usableFromInline var activeFamilyID: UInt64 = 0
    /// Counts top-level resolutions, so a ``Definition`` kept past its body is recognised.
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var isClosing = false
    var keys = KeyTable(capacity: 16)
    var entries: UnsafeMutablePointer<Entry>
    var frames: UnsafeMutablePointer<Frame>
    @usableFromInline var frameCount = 0
    private var frameCapacity = 16

    /// A definition's slot in the graph.
    struct Entry {
        enum State: UInt8 {
            /// A prototype that is not being built.
            case idle
            /// Being built; `instance` is set once the body registered it.
            case building
            /// Built, and shared for the rest of the graph.
            case done
        }

        var scope: Scope.Kind
        var state: State
        /// The innermost frame building this entry, or -1.
        var frame: Int32
        var instance: Instance
    }

    /// A definition being built. For a prototype built again while an outer instance of it is
    /// still being wired, it keeps the outer instance's state to restore afterwards.
    struct Frame {
        var entry: Int32
        var shadowedFrame: Int32
        var shadowedState: Entry.State
        var shadowed: Instance
    }

    // MARK: Singletons

    /// How many singleton bodies are running on this thread.
    @usableFromInline var singletonDepth = 0
    /// Singletons built since the outermost singleton body started. They are published together
    /// when it returns: a singleton built inside a cycle may point at one still being wired, and no
    /// other thread may see either before both are done.
    @usableFromInline var unpublishedSingletons: [(DefinitionKey, AnyObject)] = []

    private var cacheFamilyID: UInt64 = 0
    private var cacheKeys = KeyTable(capacity: 8)
    /// Unretained: the family keeps its singletons alive, and the cache is only read for a family
    /// that a live assembly holds (``cacheFamilyID`` is unique per family).
    private var cacheObjects: UnsafeMutablePointer<Unmanaged<AnyObject>>

    // MARK: Other state

    /// The family a collaborator being created joins (see ``makeAssembly(_:in:)``).
    private var pendingFamily: Family?
    private var pendingType: ObjectIdentifier?
    /// A resolver for a top-level resolution that starts while this one is busy with another family.
    private var spare: Resolver?

    init() {
        entries = .allocate(capacity: keys.capacity)
        frames = .allocate(capacity: frameCapacity)
        cacheObjects = .allocate(capacity: cacheKeys.capacity)
    }

    deinit {
        keys.deallocate()
        entries.deallocate()
        frames.deallocate()
        cacheKeys.deallocate()
        cacheObjects.deallocate()
    }

    // MARK: Finding the current resolver

    /// Calls `body` with this thread's resolver, without retaining it.
    @inlinable
    static func withCurrent<Result>(_ body: (Resolver) -> Result) -> Result {
        if let raw = pthread_getspecific(resolverKey) {
            return Unmanaged<Resolver>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
        }
        return body(makeCurrent())
    }

    @usableFromInline
    static func makeCurrent() -> Resolver {
        let resolver = Resolver()
        // Balanced by the key's destructor when the thread exits.
        pthread_setspecific(resolverKey, Unmanaged.passRetained(resolver).toOpaque())
        return resolver
    }

    // MARK: Resolving

    /// Resolves one read of a definition.
    @inlinable
    func resolve<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if scope.kind == .singleton, let cached = cachedSingleton(key, in: family, as: T.self) {
            return cached
        }
        if activeFamilyID != family.id {
            return resolveTopLevel(key, scope: scope, in: family, body)
        }
        return resolveInGraph(key, scope: scope, in: family, body)
    }

    @inlinable
    func resolveTopLevel<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if activeFamilyID != 0 || isClosing {
            return withSpare { $0.resolveTopLevel(key, scope: scope, in: family, body) }
        }
        openGraph(for: family)
        let result = resolveInGraph(key, scope: scope, in: family, body)
        closeGraph()
        return result
    }

    @inlinable
    func resolveInGraph<T>(
        _ key: DefinitionKey,
        scope: Scope,
        in family: Family,
        _ body: (Definition<T>) -> T
    ) -> T {
        if scope.kind == .singleton {
            return buildSingleton(key, in: family, body)
        }
        let index = enter(key, scope: scope.kind)
        if index < 0 {
            return instance(at: ~index).get(as: T.self)
        }
        let result = body(Definition(resolver: self, entry: index, frame: frameCount - 1, generation: generation))
        leave(index, with: Instance(result))
        return result
    }

    @usableFromInline
    func instance(at index: Int) -> Instance {
        entries[index].instance
    }

    @usableFromInline
    func buildSingleton<T>(_ key: DefinitionKey, in family: Family, _ body: (Definition<T>) -> T) -> T {
        singletonBuilder.lock()
        defer { singletonBuilder.unlock() }
        if let built = family.singleton(for: key) {
            return unboxSingleton(checked(built, key), as: T.self)
        }
        let index = enter(key, scope: .singleton)
        if index < 0 {
            return entries[~index].instance.get(as: T.self)
        }
        singletonDepth += 1
        let result = body(Definition(resolver: self, entry: index, frame: frameCount - 1, generation: generation))
        leave(index, with: Instance(result))
        singletonDepth -= 1
        unpublishedSingletons.append((key, boxSingleton(result)))
        if singletonDepth == 0 {
            family.publish(unpublishedSingletons)
            unpublishedSingletons.removeAll(keepingCapacity: true)
        }
        return result
    }

    /// A singleton already built for `family`, from this thread's cache or from the family.
    @inlinable
    func cachedSingleton<T>(_ key: DefinitionKey, in family: Family, as _: T.Type) -> T? {
        guard let object = cachedSingletonObject(key, in: family) else { return nil }
        return unboxSingleton(object, as: T.self)
    }

    @usableFromInline
    func cachedSingletonObject(_ key: DefinitionKey, in family: Family) -> AnyObject? {
        let hash = key.hashBits
        if cacheFamilyID == family.id {
            let (index, _) = cacheKeys.find(key, hash: hash)
            if index >= 0 {
                if key.isExplicit && ObjectIdentifier(cacheKeys.keys[index].type) != ObjectIdentifier(key.type) {
                    Failure.explicitKeyTypeMismatch(key, first: cacheKeys.keys[index])
                }
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
        let index = cacheKeys.insert(built.key, hash: hash, slot: slot)
        cacheObjects[index] = Unmanaged.passUnretained(object)
        return object
    }

    /// The singleton's object, once `key` is known to read it as the type it was built as.
    func checked(_ singleton: Family.Singleton, _ key: DefinitionKey) -> AnyObject {
        if key.isExplicit && ObjectIdentifier(singleton.key.type) != ObjectIdentifier(key.type) {
            Failure.explicitKeyTypeMismatch(key, first: singleton.key)
        }
        return singleton.object
    }

    // MARK: The graph's lifetime

    @usableFromInline
    func openGraph(for family: Family) {
        activeFamilyID = family.id
        generation &+= 1
    }

    /// Ends the graph: the resolver keeps none of its instances.
    @usableFromInline
    func closeGraph() {
        // Releasing instances runs their deinit, which may read assemblies again: that starts a new
        // top-level resolution on the spare resolver.
        isClosing = true
        activeFamilyID = 0
        let count = keys.count
        keys.removeAll()
        entries.deinitialize(count: count)
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

    // MARK: Entering and leaving definitions

    /// Decides what a read of `key` does in the current graph: returns the entry's index after
    /// pushing a frame to build it, or the complement (`~index`) of an entry whose instance to reuse.
    /// Stops with a precise message when the read can't be served.
    @usableFromInline
    func enter(_ key: DefinitionKey, scope: Scope.Kind) -> Int {
        if keys.isFull { growEntries() }
        let hash = key.hashBits
        let (found, slot) = keys.find(key, hash: hash)
        guard found >= 0 else {
            let index = keys.insert(key, hash: hash, slot: slot)
            (entries + index).initialize(to: Entry(scope: scope, state: .idle, frame: -1, instance: Instance()))
            return push(index)
        }
        let entry = entries[found]
        if key.isExplicit {
            let first = keys.keys[found]
            if ObjectIdentifier(first.type) != ObjectIdentifier(key.type) {
                Failure.explicitKeyTypeMismatch(key, first: first)
            }
            if entry.scope != scope {
                Failure.explicitKeyScopeMismatch(key, first: first, firstScope: entry.scope, scope: scope)
            }
        }
        switch entry.state {
        case .idle:
            return push(found)
        case .done:
            if key.isMethodWithParameters { Failure.methodReadTwice(key) }
            return ~found
        case .building:
            let top = frameCount - 1
            let frame = Int(entry.frame)
            if scope == .prototype && frame != top - 1 {
                // Not a back-reference from a direct dependency: a prototype builds a new instance,
                // unless every definition since its outer instance is a prototype, which would
                // build new instances forever.
                if entry.instance.isEmpty && frame == top {
                    Failure.initializerCycle(chain(from: frame, to: key))
                }
                if (frame...top).allSatisfy({ entries[Int(frames[$0].entry)].scope == .prototype }) {
                    Failure.prototypeCycle(chain(from: frame, to: key))
                }
                return push(found)
            }
            if entry.instance.isEmpty {
                Failure.initializerCycle(chain(from: frame, to: key))
            }
            if key.isMethodWithParameters { Failure.methodReadTwice(key) }
            return ~found
        }
    }

    private func push(_ index: Int) -> Int {
        if frameCount == frameCapacity {
            let grown = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
            grown.moveInitialize(from: frames, count: frameCount)
            frames.deallocate()
            frames = grown
            frameCapacity *= 2
        }
        let entry = entries + index
        (frames + frameCount).initialize(
            to: Frame(
                entry: Int32(index),
                shadowedFrame: entry.pointee.frame,
                shadowedState: entry.pointee.state,
                shadowed: entry.pointee.instance
            )
        )
        entry.pointee.state = .building
        entry.pointee.frame = Int32(frameCount)
        entry.pointee.instance = Instance()
        frameCount += 1
        return index
    }

    /// Finishes building the entry at `index` with the instance its body returned.
    @usableFromInline
    func leave(_ index: Int, with result: Instance) {
        frameCount -= 1
        let frame = (frames + frameCount).move()
        let entry = entries + index
        let registered = entry.pointee.instance
        if !registered.isEmpty && (registered.object !== result.object || registered.object == nil)
            && registered.identity != result.identity
        {
            Failure.returnedOtherObject(keys.keys[index])
        }
        if entry.pointee.scope == .prototype {
            entry.pointee.state = frame.shadowedState
            entry.pointee.frame = frame.shadowedFrame
            entry.pointee.instance = frame.shadowed
        } else {
            entry.pointee.state = .done
            entry.pointee.frame = -1
            entry.pointee.instance = result
        }
    }

    /// Puts `instance` into the graph under the entry being built by a ``Definition``.
    @usableFromInline
    func register(_ instance: Instance, entry index: Int, frame: Int, generation: UInt64) {
        guard generation == self.generation, index < keys.count, frame < frameCount,
            entries[index].state == .building, Int(entries[index].frame) == frame
        else {
            Failure.definitionUsedOutsideItsBody()
        }
        let entry = entries + index
        if !entry.pointee.instance.isEmpty {
            let same = entry.pointee.instance.identity != nil && entry.pointee.instance.identity == instance.identity
            if !same { Failure.registeredTwice(keys.keys[index]) }
        }
        entry.pointee.instance = instance
    }

    @usableFromInline
    func key(of index: Int) -> DefinitionKey { keys.keys[index] }

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
        (frame..<frameCount).map { keys.keys[Int(frames[$0].entry)] } + [key]
    }

    // MARK: Existing objects

    /// Every instance of the current graph of `family` that lookups may see: object-graph instances,
    /// and instances still being wired, of any scope.
    func visibleInstances(in family: Family) -> [(key: DefinitionKey, instance: Instance)] {
        guard activeFamilyID == family.id else { return [] }
        var visible: [(key: DefinitionKey, instance: Instance)] = []
        for index in 0..<keys.count {
            let entry = entries[index]
            let isVisible =
                (entry.state == .done && entry.scope == .objectGraph) || (entry.state == .building && !entry.instance.isEmpty)
            if isVisible { visible.append((keys.keys[index], entry.instance)) }
        }
        for frame in 0..<frameCount where frames[frame].shadowedState == .building && !frames[frame].shadowed.isEmpty {
            visible.append((keys.keys[Int(frames[frame].entry)], frames[frame].shadowed))
        }
        return visible
    }

    func existingObject<T>(matching _: T.Type, in family: Family) -> T? {
        var match: (key: DefinitionKey, value: T, identity: ObjectIdentifier?)?
        var candidates: [DefinitionKey] = []
        for (key, instance) in visibleInstances(in: family) {
            guard let value = instance.any as? T else { continue }
            if let match, match.identity != nil, match.identity == instance.identity { continue }
            candidates.append(key)
            if match == nil { match = (key, value, instance.identity) }
        }
        if candidates.count > 1 { Failure.ambiguousMatch(T.self, candidates: candidates) }
        return match?.value
    }

    func existingObject<T>(withKey key: DefinitionKey, as _: T.Type, in family: Family) -> T? {
        guard activeFamilyID == family.id else { return nil }
        let (index, _) = keys.find(key, hash: key.hashBits)
        guard index >= 0 else { return nil }
        let first = keys.keys[index]
        if ObjectIdentifier(first.type) != ObjectIdentifier(T.self) {
            Failure.explicitKeyTypeMismatch(key, first: first)
        }
        let entry = entries[index]
        let isVisible = entry.state == .done || (entry.state == .building && !entry.instance.isEmpty)
        return isVisible ? entry.instance.get(as: T.self) : nil
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
