/// The identity of a definition.
///
/// A default key is the definition site: the assembly type, the member name (`#function`) and the
/// result type, plus the identity of an injected object. An explicit key (`withKey:`) is the name
/// alone and is shared by the whole family; its result type is kept to diagnose a key used for two
/// types.
///
/// Keys are hashed and compared without hashing strings: the member name is a `StaticString`
/// compared by address first, and by its bytes only when two copies of one literal live at
/// different addresses. The hash reads the name's length and at most 16 of its bytes.
@usableFromInline
struct DefinitionKey {
    /// The assembly type whose member defines the key (for an explicit key: the first definer, for messages).
    @usableFromInline let assembly: Assembly.Type
    /// The member name (`#function`), or the explicit key.
    @usableFromInline let name: StaticString
    /// The member name (`#function`), for messages.
    @usableFromInline let member: StaticString
    /// The result type of the definition.
    @usableFromInline let type: Any.Type
    /// The object a definition injects into, which is part of its identity.
    @usableFromInline let argument: ObjectIdentifier?
    /// Whether `name` is an explicit key.
    @usableFromInline let isExplicit: Bool

    @inlinable
    init(
        assembly: Assembly.Type,
        name: StaticString,
        member: StaticString,
        type: Any.Type,
        argument: ObjectIdentifier?,
        isExplicit: Bool
    ) {
        self.assembly = assembly
        self.name = name
        self.member = member
        self.type = type
        self.argument = argument
        self.isExplicit = isExplicit
    }

    /// A well-mixed hash of the key's identity.
    @inlinable
    @inline(__always)
    var hashBits: UInt {
        var hash = Self.nameBits(name)
        if !isExplicit {
            hash = Self.mix(hash, UInt(bitPattern: ObjectIdentifier(assembly)))
            hash = Self.mix(hash, UInt(bitPattern: ObjectIdentifier(type)))
        }
        if let argument {
            hash = Self.mix(hash, UInt(bitPattern: argument))
        }
        return Self.mix(hash, 0)
    }

    @inlinable
    static func mix(_ hash: UInt, _ value: UInt) -> UInt {
        let multiplied = (hash ^ value) &* 0x9E37_79B9_7F4A_7C15
        return multiplied ^ (multiplied >> 29)
    }

    /// Hashes the name's length and its first and last eight bytes (two loads for most names).
    @inlinable
    @inline(__always)
    static func nameBits(_ name: StaticString) -> UInt {
        if name.hasPointerRepresentation {
            return nameBits(UnsafeRawPointer(name.utf8Start), count: name.utf8CodeUnitCount)
        }
        return name.withUTF8Buffer { nameBits(UnsafeRawPointer($0.baseAddress!), count: $0.count) }
    }

    @inlinable
    @inline(__always)
    static func nameBits(_ start: UnsafeRawPointer, count: Int) -> UInt {
        if count >= 8 {
            let first = UInt(truncatingIfNeeded: start.loadUnaligned(as: UInt64.self))
            let last = UInt(truncatingIfNeeded: start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            return mix(mix(UInt(count), first), last)
        }
        var bits = UInt(count)
        for offset in 0..<count {
            bits = (bits << 8) | UInt(start.load(fromByteOffset: offset, as: UInt8.self))
        }
        return mix(bits, 0)
    }

    @inlinable
    @inline(__always)
    static func sameName(_ left: StaticString, _ right: StaticString) -> Bool {
        if left.hasPointerRepresentation && right.hasPointerRepresentation
            && left.utf8Start == right.utf8Start
        {
            return left.utf8CodeUnitCount == right.utf8CodeUnitCount
        }
        return sameBytes(left, right)
    }

    @usableFromInline
    static func sameBytes(_ left: StaticString, _ right: StaticString) -> Bool {
        left.withUTF8Buffer { leftBytes in
            right.withUTF8Buffer { rightBytes in
                leftBytes.count == rightBytes.count && leftBytes.elementsEqual(rightBytes)
            }
        }
    }

    /// Whether two keys name the same slot.
    @inlinable
    func matches(_ other: DefinitionKey) -> Bool {
        withUnsafePointer(to: self) { left in
            withUnsafePointer(to: other) { right in Self.same(left, right) }
        }
    }

    /// Whether the keys behind two pointers name the same slot, reading only the fields it needs.
    @inlinable
    @inline(__always)
    static func same(_ left: UnsafePointer<DefinitionKey>, _ right: UnsafePointer<DefinitionKey>) -> Bool {
        if !left.pointee.isExplicit {
            guard !right.pointee.isExplicit,
                ObjectIdentifier(left.pointee.type) == ObjectIdentifier(right.pointee.type),
                ObjectIdentifier(left.pointee.assembly) == ObjectIdentifier(right.pointee.assembly)
            else { return false }
        } else if !right.pointee.isExplicit {
            return false
        }
        guard left.pointee.argument == right.pointee.argument else { return false }
        return sameName(left.pointee.name, right.pointee.name)
    }

    /// Whether the member is a method with parameters, whose calls the key can't tell apart.
    var isMethodWithParameters: Bool {
        !isExplicit && argument == nil && name.withUTF8Buffer { $0.contains(UInt8(ascii: ":")) }
    }

    /// `AssemblyType.member`, or `AssemblyType.member (key "name")` for an explicit key.
    var description: String {
        let memberName = member.description
        let site = "\(String(describing: assembly)).\(memberName)"
        return isExplicit ? "\(site) (key \"\(name)\")" : site
    }
}

extension DefinitionKey: Hashable {
    @inlinable
    static func == (left: DefinitionKey, right: DefinitionKey) -> Bool {
        left.matches(right)
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        hasher.combine(hashBits)
    }
}
