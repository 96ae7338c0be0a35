#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// The singletons a resolver has read, in two levels in front of their families' stores: published
/// singletons only, so a cached read takes no lock and writes nothing.
///
/// - The first level is a table of ``Line``s, direct-mapped by the key's hash, for default keys
///   only: a getter's inlined check (``Resolver/cachedSingleton(_:in:)``) compares seven words of
///   one line and calls nothing.
/// - The second level holds every singleton the resolver has read in one family, the last one it
///   read a singleton of, by key; a hit there refills the key's line. A singleton with arguments is
///   in neither: the cache would keep the argument values, and one that holds an assembly of the
///   family would keep the family alive after its root's release.
///
/// Objects are held `unowned`: a cache never keeps a singleton alive, so the family lets go of its
/// singletons when its root is released (``SingletonStore/releaseInstances()``) even while this
/// thread's cache names them. A read then no longer comes here (the family is closing, see
/// ``Family/isClosing``); a read that checked the family just before its root was released, on
/// another thread, either still takes the singleton or stops at Swift's check of the `unowned`
/// reference — never a released object. An entry keeps only the memory of an object released
/// meanwhile (not the object: its `deinit` has run) until it is replaced. Entries carry their
/// family's ``Family/id``, which no other family ever has. Nothing is allocated until the first
/// singleton is cached: a resolver that never reads one — a task's async graph's, most often — costs
/// nothing for it.
@usableFromInline
struct SingletonCache {
    /// A singleton read under its default key.
    @usableFromInline
    struct Line {
        @usableFromInline var familyID: UInt64 = 0
        @usableFromInline var assembly: UInt = 0
        @usableFromInline var type: UInt = 0
        @usableFromInline var argumentBits: UInt = 0
        @usableFromInline var name: UnsafeRawPointer? = nil
        @usableFromInline var line: UInt = 0
        @usableFromInline var file: UInt = 0
        @usableFromInline unowned(safe) var object: AnyObject? = nil
    }

    /// A singleton of the second level.
    struct Entry {
        unowned(safe) let object: AnyObject
    }

    @usableFromInline static let lineCount = 64

    /// The first level, or nil until a singleton is cached.
    @usableFromInline private(set) var lines: UnsafeMutablePointer<Line>?
    /// The family of the second level, or 0.
    private var familyID: UInt64 = 0
    private var keys: KeyTable?
    /// Parallel to `keys`.
    private var objects: UnsafeMutablePointer<Entry>?

    init() {}

    func deallocate() {
        if let lines {
            lines.deinitialize(count: Self.lineCount)
            lines.deallocate()
        }
        if let keys, let objects {
            objects.deinitialize(count: keys.count)
            objects.deallocate()
        }
        keys?.deallocate()
    }

    /// The published singleton of `key` in `family`: from the second level or, the first time, from
    /// the family's store, which the second level then keeps. Fills the key's line either way.
    mutating func object(for key: DefinitionKey, in family: Family) -> AnyObject? {
        // A key with arguments isn't cached: the cache would keep its values, and a value that holds
        // an assembly of the family would keep the family alive after its root's release.
        guard !key.hasArguments else { return family.singletons.published(key)?.object }
        if familyID == family.id, let keys, let objects {
            let (index, _) = keys.find(key)
            if index >= 0 {
                if key.isExplicit { key.requireSameType(as: keys.keys[index]) }
                let object = objects[index].object
                fillLine(for: key, in: family, with: object)
                return object
            }
        }
        guard let (object, builtKey) = family.singletons.published(key) else { return nil }
        guard Self.isCacheable(object) else { return object }
        insert(builtKey, object: object, in: family)
        fillLine(for: key, in: family, with: object)
        return object
    }

    /// Whether `object` can be cached: a native Swift object. An Objective-C object's `unowned`
    /// reference would go through the Objective-C runtime's weak table, which takes a lock, and some
    /// classes refuse weak references: such a singleton is read from its family's store each time.
    private static func isCacheable(_ object: AnyObject) -> Bool {
        #if canImport(ObjectiveC)
        !(object is NSObject)
        #else
        true
        #endif
    }

    /// Adds `key` to the second level, emptied first when it held another family.
    private mutating func insert(_ key: DefinitionKey, object: AnyObject, in family: Family) {
        var table = keys ?? KeyTable(capacity: 8)
        var buffer = objects ?? .allocate(capacity: table.capacity)
        if familyID != family.id {
            buffer.deinitialize(count: table.count)
            table.removeAll()
            familyID = family.id
        }
        if table.isFull {
            table.grow()
            buffer = buffer.moved(count: table.count, toCapacity: table.capacity)
        }
        let (_, slot) = table.find(key)
        let index = table.insert(key, slot: slot)
        (buffer + index).initialize(to: Entry(object: object))
        keys = table
        objects = buffer
    }

    /// Fills the first-level line of `key`, for a default key without arguments (an explicit key's
    /// reads check its type each time; arguments are compared by value).
    private mutating func fillLine(for key: DefinitionKey, in family: Family, with object: AnyObject) {
        guard !key.isExplicit && !key.hasArguments else { return }
        if lines == nil {
            let table = UnsafeMutablePointer<Line>.allocate(capacity: Self.lineCount)
            table.initialize(repeating: Line(), count: Self.lineCount)
            lines = table
        }
        lines![Self.index(of: key)] = Line(
            familyID: family.id,
            assembly: UInt(bitPattern: ObjectIdentifier(key.assembly)),
            type: UInt(bitPattern: ObjectIdentifier(key.type)),
            argumentBits: key.argumentBits,
            name: key.name,
            line: key.line,
            file: key.file,
            object: object
        )
    }

    /// The line of `key` in the first level.
    @inlinable
    @inline(__always)
    static func index(of key: DefinitionKey) -> Int {
        Int(key.hashBits & UInt(lineCount - 1))
    }

    /// The object of `key`'s line when the line holds `key` of `family`: seven words compared.
    @inlinable
    @inline(__always)
    func cached(_ key: DefinitionKey, in family: Family) -> AnyObject? {
        guard let lines else { return nil }
        let line = lines + Self.index(of: key)
        guard line.pointee.familyID == family.id, line.pointee.name == key.name,
            line.pointee.type == UInt(bitPattern: ObjectIdentifier(key.type)),
            line.pointee.assembly == UInt(bitPattern: ObjectIdentifier(key.assembly)),
            line.pointee.line == key.line, line.pointee.file == key.file,
            line.pointee.argumentBits == key.argumentBits
        else { return nil }
        return line.pointee.object
    }
}
