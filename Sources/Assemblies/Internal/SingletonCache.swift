/// The singletons a resolver has read, in two levels in front of their families' stores: published
/// singletons only, so a cached read takes no lock and writes nothing.
///
/// - The first level is a table of ``Line``s, direct-mapped by the key's hash, for default keys
///   only: a getter's inlined check (``Resolver/cachedSingleton(_:in:)``) compares seven words of
///   one line and calls nothing.
/// - The second level holds every singleton the resolver has read in one family, the last one it
///   read a singleton of, by key; a hit there refills the key's line.
///
/// Objects are held unretained: a family keeps its singletons for as long as it lives, and a cache
/// is only read for a family that a live assembly holds, whose ``Family/id`` no other family ever
/// has (see `Internal/UnsafeCode.md`). Nothing is allocated until the first singleton is cached: a
/// resolver that never reads one — a task's async graph's, most often — costs nothing for it.
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
        @usableFromInline var object: Unmanaged<AnyObject>? = nil
    }

    @usableFromInline static let lineCount = 64

    /// The first level, or nil until a singleton is cached.
    @usableFromInline private(set) var lines: UnsafeMutablePointer<Line>?
    /// The family of the second level, or 0.
    private var familyID: UInt64 = 0
    private var keys: KeyTable?
    /// Parallel to `keys`.
    private var objects: UnsafeMutablePointer<Unmanaged<AnyObject>>?
    /// Keeps the argument values of the keys in `keys` that have some.
    private var arguments: [StoredKey] = []

    init() {}

    func deallocate() {
        lines?.deallocate()
        keys?.deallocate()
        objects?.deallocate()
    }

    /// The published singleton of `key` in `family`: from the second level or, the first time, from
    /// the family's store, which the second level then keeps. Fills the key's line either way.
    mutating func object(for key: DefinitionKey, in family: Family) -> AnyObject? {
        if familyID == family.id, let keys, let objects {
            let (index, _) = keys.find(key)
            if index >= 0 {
                if key.isExplicit { key.requireSameType(as: keys.keys[index]) }
                fillLine(for: key, in: family, with: objects[index])
                return objects[index].takeUnretainedValue()
            }
        }
        guard let (object, builtKey) = family.singletons.published(key) else { return nil }
        let index = insert(builtKey, object: Unmanaged.passUnretained(object), in: family)
        fillLine(for: key, in: family, with: objects![index])
        return object
    }

    /// Adds `key` to the second level, emptied first when it held another family.
    private mutating func insert(_ key: StoredKey, object: Unmanaged<AnyObject>, in family: Family) -> Int {
        var table = keys ?? KeyTable(capacity: 8)
        var buffer = objects ?? .allocate(capacity: table.capacity)
        if familyID != family.id {
            table.removeAll()
            arguments.removeAll()
            familyID = family.id
        }
        if table.isFull {
            table.grow()
            buffer = buffer.moved(count: table.count, toCapacity: table.capacity)
        }
        let (_, slot) = table.find(key.key)
        let index = table.insert(key.key, slot: slot)
        if key.key.arguments != nil {
            arguments.append(key)
        }
        buffer[index] = object
        keys = table
        objects = buffer
        return index
    }

    /// Fills the first-level line of `key`, for a default key without arguments (an explicit key's
    /// reads check its type each time; arguments are compared by value).
    private mutating func fillLine(for key: DefinitionKey, in family: Family, with object: Unmanaged<AnyObject>) {
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
            line.pointee.argumentBits == key.argumentBits, let object = line.pointee.object
        else { return nil }
        return object.takeUnretainedValue()
    }
}
