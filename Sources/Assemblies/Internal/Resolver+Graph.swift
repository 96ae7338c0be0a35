#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

// The object graph: entering and leaving definitions, the frames and entries, cycles.

extension Resolver {
    // MARK: The graph's lifetime

    /// Resolves a top-level read in a new graph of `family`, which keeps singletons in `store`
    /// (the family's, or those of `context`, the task's overrides of the family) and reports its
    /// reads to `observation`, then ends it.
    @inlinable
    @inline(__always)
    func resolveInNewGraph<T, E: Error>(
        _ key: UnsafePointer<DefinitionKey>,
        scope: Scope,
        in family: Family,
        keepingSingletonsIn store: SingletonStore,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?,
        _ body: (Definition<T>) throws(E) -> T
    ) throws(E) -> T {
        beginGraph(of: family, keepingSingletonsIn: store, overriddenBy: context, observedBy: observation)
        let result: T
        do {
            result = try resolveInGraph(key, scope: scope, in: family, body)
        } catch {
            abandonGraph()
            throw error
        }
        finishGraph()
        return result
    }

    /// Opens a graph of `family` on this resolver (see ``resolveInNewGraph(_:scope:in:keepingSingletonsIn:overriddenBy:observedBy:_:)``).
    @inlinable
    @inline(__always)
    func beginGraph(
        of family: Family,
        keepingSingletonsIn store: SingletonStore,
        overriddenBy context: OverrideContext?,
        observedBy observation: Observation?
    ) {
        activeFamilyID = family.id
        activeFamily = family
        activeStore = store
        generation &+= 1
        if let context {
            activeFamilyID |= Self.interceptedGraph
            activeContext = context
            activeContextSingletons = store
        }
        if let observation {
            activeFamilyID |= Self.interceptedGraph
            activeObservation = observation
        }
    }

    /// Runs the deferred steps (which may read more definitions into the graph and queue more
    /// steps), then ends the graph.
    @inlinable
    @inline(__always)
    func finishGraph() {
        if !deferredSteps.isEmpty {
            runDeferredSteps()
        }
        closeGraph()
    }

    @usableFromInline
    func runDeferredSteps() {
        var index = 0
        while index < deferredSteps.count {
            deferredSteps[index]()
            index += 1
        }
        deferredSteps.removeAll(keepingCapacity: true)
        if !heldForSteps.isEmpty {
            let items = heldForSteps
            heldForSteps.removeAll()
            settle(items)
        }
    }

    /// Ends the graph: the resolver keeps none of its instances, and keeps its keys unless there are
    /// more than ``keyLimit``.
    @usableFromInline
    func closeGraph() {
        // Releasing instances runs their deinit, which may read assemblies again: that starts a new
        // top-level resolution on the spare resolver.
        isClosing = true
        if lowestHandedOut != .max || !pending.isEmpty {
            // Every frame has left, so these were settled already; this only keeps a mistake in
            // that bookkeeping from holding a singleton back for ever.
            assertionFailure("Assemblies: a graph closed with instances still held back")
            lowestHandedOut = .max
            let items = pending
            pending.removeAll()
            settle(items)
        }
        if activeFamilyID & Self.interceptedGraph != 0 {
            // Only an intercepted graph has an override context, its singletons or an observation.
            activeContext = nil
            activeContextSingletons = nil
            activeObservation = nil
        }
        activeFamilyID = 0
        activeFamily = nil
        activeStore = nil
        if !argumentEntries.isEmpty {
            for entry in argumentEntries {
                keys.dropArguments(at: Int(entry.index))
            }
            argumentEntries.removeAll(keepingCapacity: true)
        }
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
        if !keptAlive.isEmpty {
            keptAlive.removeAll()
        }
        isClosing = false
        if !toDispose.isEmpty {
            disposeDropped()
        }
    }

    /// Disposes of the instances a reset dropped while this graph built them, the most recently
    /// built first, once the graph is closed (their `dispose()` may read the family again).
    func disposeDropped() {
        let dropped = toDispose
        toDispose.removeAll()
        for object in dropped.reversed() {
            (unboxed(object) as? Disposable)?.dispose()
        }
    }

    /// Runs `body` on this thread's spare resolver: a read of another family, or one made while
    /// this graph is being released, is a top-level resolution of its own. `key` is the read that
    /// crosses to another family, counted to stop a cycle between families; nil for a read that is
    /// only meant to start a graph of its own (see ``inGraphOfItsOwn(_:)``).
    @usableFromInline
    func withSpare<Result, E: Error>(
        crossingWith key: DefinitionKey?,
        _ body: (Resolver) throws(E) -> Result
    ) throws(E) -> Result {
        let spare = self.spare ?? Resolver(thread: thread)
        self.spare = nil
        spare.outer = self
        spare.crossingKey = key.map(StoredKey.init)
        spare.crossings = key == nil ? crossings : crossings + 1
        if spare.crossings > Self.crossingLimit {
            Failure.crossFamilyCycle(spare.chain.compactMap { $0.crossingKey?.key }.reversed())
        }
        let raw = pthread_getspecific(resolverKey)
        pthread_setspecific(resolverKey, Unmanaged.passUnretained(spare).toOpaque())
        defer {
            pthread_setspecific(resolverKey, raw)
            spare.crossingKey = nil
            self.spare = spare
        }
        return try body(spare)
    }

    /// Runs `body`, whose reads are top-level reads with graphs of their own even when a graph is
    /// open on this thread: how a property wrapper read inside a definition body resolves.
    func inGraphOfItsOwn<Result>(_ body: () -> Result) -> Result {
        if activeFamilyID == 0 && !isClosing {
            return body()
        }
        return withSpare(crossingWith: nil) { _ in body() }
    }

    // MARK: Instances

    /// An instance to hand back again to a read of `key`, found by ``enter(_:hash:scope:)``, as the
    /// `T` it was stored as.
    @inlinable
    func reused<T>(_ source: Int, as _: T.Type, for key: UnsafePointer<DefinitionKey>) -> T {
        if isReference(T.self) {
            return unsafeBitCast(reusedObject(source).unsafelyUnwrapped, to: T.self)
        }
        return reusedValue(source, for: key) as! T
    }

    /// `source` is `index << 1 | 1` for an entry's built instance, `frame << 1` for one being wired.
    @usableFromInline
    func reusedObject(_ source: Int) -> AnyObject? {
        source & 1 == 1 ? entries[source >> 1].object : frames[source >> 1].object
    }

    @usableFromInline
    func reusedValue(_ source: Int, for key: UnsafePointer<DefinitionKey>) -> Any {
        let value = values[Int(source & 1 == 1 ? entries[source >> 1].value : frames[source >> 1].value)]
        if source & 1 == 0 && Assemblies.identity(of: value) == nil {
            // In flight, and not an object (an existential of a protocol may hold one): a copy.
            warnValueHandedOut(chain(from: source >> 1, to: key.pointee), type: key.pointee.type)
        }
        return value
    }

    /// Warns, once per chain and family, that a value registered with `*~>` was read back while its
    /// definition was being built: the reader got a copy, which misses what the body changes later.
    func warnValueHandedOut(_ chain: [DefinitionKey], type: Any.Type) {
        guard let family = activeFamily else { return }
        let names = chain.map(DefinitionName.init)
        guard family.captives.withLock({ $0.warned.insert(names).inserted }) else { return }
        WaitWarning.print(
            """
            \(names[0]) registered a value of type \(type), which is not a class, with *~>, and \(names[names.count - 2]) \
            read it back while it was being built: \(names.map(\.description).joined(separator: " → ")). The reader \
            got a copy made when the value was registered, which doesn't see what the body changes afterwards. \
            To fix this, make \(type) a class, or finish the value before registering it.
            """
        )
    }

    /// Stores a value that is not a class reference for the rest of the graph; returns its index.
    @usableFromInline
    func store(_ value: Any) -> Int32 {
        if valueCount == valueCapacity {
            values = values.moved(count: valueCount, toCapacity: valueCapacity * 2)
            valueCapacity *= 2
        }
        (values + valueCount).initialize(to: value)
        valueCount += 1
        return Int32(valueCount - 1)
    }

    func identity(of object: AnyObject?, value: Int32) -> ObjectIdentifier? {
        if let object { return ObjectIdentifier(object) }
        return value >= 0 ? Assemblies.identity(of: values[Int(value)]) : nil
    }

    // MARK: Entering and leaving definitions

    /// Decides what a read of a shared definition does in the current graph. Returns the index of a new frame to
    /// build it in, or the complement (`~source`) of an instance to hand back again (see
    /// ``reusedObject(_:)``). Stops with a precise message when the read can't be served.
    @usableFromInline
    func enter(_ key: UnsafePointer<DefinitionKey>, hash: UInt, scope: Scope.Kind) -> Int {
        if isWatchingCaptives && scope == .objectGraph {
            checkCaptive(key, scope: .objectGraph)
        }
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
        if frame < lowestHandedOut { lowestHandedOut = frame }
        return ~(frame << 1)
    }

    /// The index of `key`'s entry in the current graph. An entry first read in this graph is
    /// returned as `.building` with no frame, in `scope` (or `.checkOnly` for a prototype or a stored
    /// definition, which only have an entry when their key is explicit).
    func entry(for key: UnsafePointer<DefinitionKey>, hash: UInt, scope: Scope.Kind) -> Int {
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
                        || key.pointee.hasArguments
                )
            )
        }
        let entry = entries + found
        if entry.pointee.generation != generation {
            entry.pointee.generation = generation
            entry.pointee.scope = scope
            entry.pointee.state = scope == .objectGraph ? .building : .checkOnly
            entry.pointee.frame = -1
            entry.pointee.value = -1
            if key.pointee.isExplicit {
                // First read of the key in this graph: the family remembers its type across graphs.
                activeFamily?.checkExplicitKey(key.pointee)
                keys.replaceKey(at: found, with: key)
            }
            if key.pointee.arguments != nil {
                // A key with arguments is only ever found in the graph that stamped it (keys of
                // earlier graphs have dropped theirs), so the table's key refers to this list.
                argumentEntries.append((Int32(found), StoredKey(key.pointee)))
            }
            if touchedCount == touchedCapacity {
                touched = touched.moved(count: touchedCount, toCapacity: touchedCapacity * 2)
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
        if key.pointee.isExplicit { checkExplicitKeyWithoutEntry(key, scope: .prototype) }
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
        if frame < lowestHandedOut { lowestHandedOut = frame }
        return frame << 1
    }

    /// Makes room for one more frame, looks for a cycle of prototypes at each doubling depth, and
    /// stops before the thread's stack runs out.
    @usableFromInline
    func prepareToPushDeeper(_ key: UnsafePointer<DefinitionKey>) {
        if !hasStackRoom(at: key) && thread.currentStack.isExhausted(at: UInt(bitPattern: key)) {
            stopBeforeStackOverflow(at: key.pointee)
        }
        if frameCount == frameCapacity {
            frames = frames.moved(count: frameCount, toCapacity: frameCapacity * 2)
            frameCapacity *= 2
        }
        if frameCount + 1 == nextCycleCheck {
            checkForPrototypeCycle()
        }
    }

    /// Stops a resolution nested so deeply that the thread's stack is nearly used up.
    func stopBeforeStackOverflow(at key: DefinitionKey) -> Never {
        let chain = threadChain(to: key)
        var counts: [String: Int] = [:]
        for step in chain {
            counts["\(String(describing: step.assembly)).\(step.member)", default: 0] += 1
        }
        let repeated = counts.max { $0.value < $1.value }.map { (member: $0.key, count: $0.value) }
        Failure.stackExhausted(depth: chain.count, first: chain[0], last: key, repeated: repeated)
    }

    func push(_ key: UnsafePointer<DefinitionKey>, entry: Int, scope: Scope.Kind) -> Int {
        if frameCount == frameCapacity || frameCount + 1 == nextCycleCheck
            || !hasStackRoom(at: key)
        {
            prepareToPushDeeper(key)
        }
        serial &+= 1
        let index = frameCount
        (frames + index).initialize(
            to: Frame(key: key, entry: Int32(entry), scope: scope, value: -1, serial: serial, object: nil)
        )
        if entry >= 0 {
            entries[entry].frame = Int32(index)
        }
        frameCount += 1
        return index
    }

    /// A cycle made only of prototypes builds new instances forever, so the stack keeps growing.
    /// Each time it doubles past ``firstCycleCheck``, look for the top definition further down with
    /// only prototypes in between.
    func checkForPrototypeCycle() {
        nextCycleCheck *= 2
        let top = frameCount - 1
        var frame = top - 1
        while frame >= 0 && frames[frame + 1].scope == .prototype {
            if DefinitionKey.same(frames[frame].key, frames[top].key) {
                // Report the cycle from where it was first entered.
                let period = top - frame
                var start = frame
                while start > 0 && DefinitionKey.same(frames[start - 1].key, frames[start - 1 + period].key) {
                    start -= 1
                }
                Failure.prototypeCycle((start...(start + period)).map { frames[$0].key.pointee })
            }
            frame -= 1
        }
    }

    /// Finishes building the frame at `frame` with the instance its body returned, then runs the
    /// hooks its body added.
    @inlinable
    @inline(__always)
    func leave<T>(_ frame: Int, returning result: T) {
        if hookCount != 0 {
            return leaveRunningHooks(frame, returning: result)
        }
        leaveWithoutHooks(frame, returning: result)
    }

    @inlinable
    @inline(__always)
    func leaveWithoutHooks<T>(_ frame: Int, returning result: T) {
        if isReference(T.self) {
            leave(frame, object: unsafeBitCast(result, to: AnyObject.self), value: -1)
        } else {
            leave(frame, object: nil, value: isPrototype(frame) ? -1 : store(result))
        }
    }

    /// ``leave(_:returning:)`` while some frame has hooks: then runs the frame's own hooks, if any,
    /// in the order they were added, and queues its deferred steps.
    @usableFromInline
    func leaveRunningHooks<T>(_ frame: Int, returning instance: T) {
        let serial = frames[frame].serial
        leaveWithoutHooks(frame, returning: instance)
        guard hooks.last?.serial == serial else { return }
        var start = hooks.count
        while start > 0 && hooks[start - 1].serial == serial { start -= 1 }
        let finished = hooks[start...]
        hooks.removeSubrange(start...)
        hookCount = hooks.count
        for hook in finished {
            if hook.isDeferred {
                deferredSteps.append { hook.run(instance) }
            } else {
                hook.run(instance)
            }
        }
    }

    /// Adds a hook to the frame a ``Definition`` belongs to.
    @usableFromInline
    func addHook(frame index: Int, serial: UInt64, isDeferred: Bool, _ run: @escaping (Any) -> Void) {
        if frames[index].isBare {
            // The frame must leave through `leave`, which runs hooks; -2 means "no value, but hooks".
            frames[index].value = -2
        }
        hooks.append(Hook(serial: serial, isDeferred: isDeferred, run: run))
        hookCount = hooks.count
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
        if index == lowestHandedOut {
            lowestHandedOut = .max
            if !pending.isEmpty || !foreignHandouts.isEmpty {
                handedOutFrameFinished()
            }
        }
    }

    /// Puts `instance` into the graph as the instance of the frame a ``Definition`` belongs to.
    @inlinable
    func register<T>(_ instance: T, frame: Int, serial: UInt64) {
        if isReference(T.self) {
            register(object: unsafeBitCast(instance, to: AnyObject.self), value: -1, frame: frame, serial: serial)
        } else if register(object: nil, value: store(instance), frame: frame, serial: serial) {
            registerInSlot(ValueBox(instance), frame: frame)
        }
    }

    /// Registers an object or a stored value; returns whether the frame builds a stored definition
    /// whose slot must learn the value too (the caller boxes it with its type).
    @usableFromInline
    @discardableResult
    func register(object: AnyObject?, value: Int32, frame index: Int, serial: UInt64) -> Bool {
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
        frame.pointee.value = value < 0 ? frame.pointee.value : value
        guard frame.pointee.entry < 0 && frame.pointee.scope != .prototype else { return false }
        if let object {
            registerInSlot(object, frame: index)
            return false
        }
        return true
    }

    /// Registers `object` in the frame a ``Definition`` names: its resolver (at `address`, numbered
    /// `number`), `frame` and `serial`, with `key` the thread's ``resolverKey``.
    @usableFromInline
    static func register(
        _ object: Unmanaged<AnyObject>,
        resolver address: Unmanaged<Resolver>,
        number: UInt64,
        frame: Int,
        serial: UInt64,
        key: UInt32
    ) {
        if pthread_getspecific(pthread_key_t(key)) == address.toOpaque() {
            // The common case: the definition's resolver is this thread's current one, so it is alive.
            address._withUnsafeGuaranteedRef { resolver in
                if resolver.number != number { Failure.definitionUsedOutsideItsBody() }
                resolver.register(object: object.takeUnretainedValue(), value: -1, frame: frame, serial: serial)
            }
        } else {
            _ = withCurrent { current in
                current.resolver(at: address.toOpaque(), numbered: number, frame: frame, serial: serial)
                    .register(object: object.takeUnretainedValue(), value: -1, frame: frame, serial: serial)
            }
        }
    }

    /// The resolver of this thread whose frame a ``Definition`` belongs to: this one or one it
    /// stands in for. Stops when the definition is used outside its body — after it returned, in a
    /// later graph, on another thread, or after its thread ended.
    @usableFromInline
    func resolver(at address: UnsafeMutableRawPointer, numbered number: UInt64, frame: Int, serial: UInt64) -> Resolver
    {
        // A definition of an async body is used from the task, whose graphs are not the thread's.
        guard let owner = resolver(numbered: number) ?? AsyncGraph.resolver(numbered: number),
            Unmanaged.passUnretained(owner).toOpaque() == address,
            frame < owner.frameCount, owner.frames[frame].serial == serial
        else { Failure.definitionUsedOutsideItsBody() }
        return owner
    }

    /// This resolver, then the resolvers it stands in for, outermost last: the graphs open on this
    /// thread, innermost first.
    var chain: some Sequence<Resolver> { sequence(first: self, next: \.outer) }

    /// The resolver numbered `number` among the graphs open on this thread.
    func resolver(numbered number: UInt64) -> Resolver? {
        chain.first { $0.number == number }
    }

    @usableFromInline
    func key(ofFrame index: Int) -> DefinitionKey { frames[index].key.pointee }

    func growEntries() {
        keys.grow()
        entries = entries.moved(count: keys.count, toCapacity: keys.capacity)
    }

    /// The definitions from `frame` to the top of the stack, then `key` read again.
    func chain(from frame: Int, to key: DefinitionKey) -> [DefinitionKey] {
        (frame..<frameCount).map { frames[$0].key.pointee } + [key]
    }

    func checkExplicitKey(_ key: DefinitionKey, at index: Int, scope: Scope.Kind) {
        let first = keys.keys[index]
        key.requireSameType(as: first)
        if entries[index].scope != scope {
            Failure.explicitKeyScopeMismatch(key, first: first, firstScope: entries[index].scope, scope: scope)
        }
    }

    /// An explicit key names one slot whatever its scope, so the key of a definition that has no
    /// entry of its own (a prototype, a stored definition) is checked like the others'.
    func checkExplicitKeyWithoutEntry(_ key: UnsafePointer<DefinitionKey>, scope: Scope.Kind) {
        let found = entry(for: key, hash: key.pointee.hashBits, scope: scope)
        checkExplicitKey(key.pointee, at: found, scope: scope)
    }
}
