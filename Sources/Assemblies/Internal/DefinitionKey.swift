/// The identity of a definition.
///
/// A default key is the definition site: the assembly type, the member name (`#function`), the
/// result type and the place in the source (`#fileID` and `#line` of the `define` call), plus the
/// identity of an injected object or the values of the arguments. The place is what tells a
/// subclass's override of a definition from the superclass's definition it reads with `super`:
/// both have the same assembly type, name and result type. An explicit key (`withKey:`) is the name
/// alone (plus an injected object or arguments) and is shared by the whole family; its result type
/// is kept to diagnose a key used for two types.
///
/// Keys are hashed and compared as words, without hashing strings: the assembly type and the
/// result type (0 for an explicit key), the injected object (or the arguments' hash, or 0), the
/// name's address and length, and the line. The name and the file are `StaticString`s compared by
/// address first, and by their bytes only when the addresses differ and the other words match. The
/// hash reads the name's length and at most 8 of its bytes. Arguments are compared by value (and
/// by their static types) only when every word matches.
///
/// A key is trivial to copy — the read path copies and compares it in every getter — so it refers
/// to its ``ArgumentList`` without retaining it. The `define` call that makes a key keeps the list
/// alive while the read runs; whatever keeps a key beyond that keeps it as a ``StoredKey``, which
/// retains the list (see `Internal/UnsafeCode.md`).
@usableFromInline
struct DefinitionKey {
    // MARK: Identity

    /// The assembly type's identity, or 0 for an explicit key.
    @usableFromInline let assemblyBits: UInt
    /// The result type's identity, or 0 for an explicit key.
    @usableFromInline let typeBits: UInt
    /// The identity of the object a definition injects into, or the hash of its arguments with the
    /// lowest bit set (an object's address never has it), or 0.
    @usableFromInline var argumentBits: UInt
    /// The UTF-8 bytes of the member name or explicit key.
    @usableFromInline let name: UnsafeRawPointer
    /// The number of bytes at `name`, or -1 when `name` holds a lone Unicode scalar's value (with
    /// the top bit set, so it is never null).
    @usableFromInline let nameCount: Int
    /// The line of the `define` call, or 0 for an explicit key.
    @usableFromInline let line: UInt
    /// The UTF-8 bytes of the `define` call's `#fileID`, and their number (see `name`); both 0 for
    /// an explicit key.
    @usableFromInline let file: UInt
    @usableFromInline let fileCount: Int

    // MARK: Checks and messages

    /// The assembly type whose member defines the key (for an explicit key: the first definer).
    @usableFromInline let assembly: Assembly.Type
    /// The result type of the definition.
    @usableFromInline let type: Any.Type
    /// The member name (`#function`).
    @usableFromInline let member: StaticString
    /// The argument values of a definition that takes arguments, or nil; not retained (see above).
    /// A key left in the resolver's table after its graph closed drops them (see
    /// ``Resolver/closeGraph()``), so that the table keeps no argument alive, and then matches no
    /// other key.
    @usableFromInline unowned(unsafe) var arguments: ArgumentList?

    @inlinable
    @inline(__always)
    init(
        assembly: Assembly.Type,
        member: StaticString,
        type: Any.Type,
        explicitKey: StaticString?,
        file: StaticString,
        line: UInt,
        argument: AnyObject?
    ) {
        let name = Self.bits(of: explicitKey ?? member)
        self.name = UnsafeRawPointer(bitPattern: name.word).unsafelyUnwrapped
        nameCount = name.count
        let site = Self.bits(of: file)
        self.file = explicitKey == nil ? site.word : 0
        fileCount = explicitKey == nil ? site.count : 0
        self.line = explicitKey == nil ? line : 0
        assemblyBits = explicitKey == nil ? UInt(bitPattern: ObjectIdentifier(assembly)) : 0
        typeBits = explicitKey == nil ? UInt(bitPattern: ObjectIdentifier(type)) : 0
        argumentBits = argument.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        self.assembly = assembly
        self.type = type
        self.member = member
        arguments = nil
    }

    /// The key of a definition that takes arguments: its site (or explicit key) and the values.
    @inlinable
    init(
        assembly: Assembly.Type,
        member: StaticString,
        type: Any.Type,
        explicitKey: StaticString?,
        file: StaticString,
        line: UInt,
        arguments: ArgumentList
    ) {
        self.init(
            assembly: assembly,
            member: member,
            type: type,
            explicitKey: explicitKey,
            file: file,
            line: line,
            argument: nil
        )
        self.arguments = arguments
        self.argumentBits = arguments.bits
    }

    /// A `StaticString`'s bytes as a word and a count; for a lone Unicode scalar, its value with the
    /// top bit set (so the word is never null) and -1.
    ///
    /// StaticString is frozen: a word (the UTF-8 start, or a lone scalar's value), a count and flags
    /// whose lowest bit is set for the scalar form. Reading them directly costs no branch on the
    /// representation, which matters in the many getters that don't inline this.
    @inlinable
    @inline(__always)
    static func bits(of string: StaticString) -> (word: UInt, count: Int) {
        let raw = unsafeBitCast(string, to: (word: UInt, count: Int, flags: UInt8).self)
        let isScalar = raw.flags & 1 != 0
        return (isScalar ? raw.word | scalarFlag : raw.word, isScalar ? -1 : raw.count)
    }

    /// The top bit of a word, set in a lone scalar's word: bit 63, or bit 31 on 32-bit watchOS.
    @inlinable
    static var scalarFlag: UInt { 1 << (UInt.bitWidth - 1) }

    /// Whether the key was given with `withKey:`.
    @inlinable
    var isExplicit: Bool { assemblyBits == 0 }

    /// A hash of the key's identity: its words and the name's length and first eight bytes, mixed
    /// with one multiplication.
    @inlinable
    @inline(__always)
    var hashBits: UInt {
        var nameBits: UInt
        if nameCount >= 8 {
            nameBits = UInt(truncatingIfNeeded: name.loadUnaligned(as: UInt64.self))
        } else if nameCount >= 0 {
            nameBits = 0
            for offset in 0..<nameCount {
                nameBits = (nameBits << 8) | UInt(name.load(fromByteOffset: offset, as: UInt8.self))
            }
        } else {
            nameBits = UInt(bitPattern: name)
        }
        let words =
            assemblyBits ^ (typeBits &* 31) ^ (argumentBits &* 961) ^ nameBits ^ UInt(bitPattern: nameCount)
            ^ (line &* 29_791)
        // The golden-ratio multiplier, cut to 32 bits on 32-bit watchOS (armv7k, arm64_32).
        let mixed = words &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        return mixed ^ (mixed >> (UInt.bitWidth / 2))
    }

    /// Whether the keys behind two pointers name the same slot.
    @inlinable
    @inline(__always)
    static func same(_ left: UnsafePointer<DefinitionKey>, _ right: UnsafePointer<DefinitionKey>) -> Bool {
        guard left.pointee.typeBits == right.pointee.typeBits,
            left.pointee.assemblyBits == right.pointee.assemblyBits,
            left.pointee.argumentBits == right.pointee.argumentBits,
            left.pointee.nameCount == right.pointee.nameCount,
            left.pointee.line == right.pointee.line
        else { return false }
        guard
            left.pointee.name == right.pointee.name
                || (left.pointee.nameCount >= 0
                    && sameBytes(left.pointee.name, right.pointee.name, count: left.pointee.nameCount))
        else { return false }
        guard left.pointee.file == right.pointee.file || sameFile(left, right) else { return false }
        return left.pointee.argumentBits & 1 == 0 || sameArguments(left, right)
    }

    /// Whether two keys whose files are at different addresses name the same file (a literal may
    /// be emitted twice when a getter is inlined into another object file).
    @usableFromInline
    static func sameFile(_ left: UnsafePointer<DefinitionKey>, _ right: UnsafePointer<DefinitionKey>) -> Bool {
        guard left.pointee.fileCount == right.pointee.fileCount, left.pointee.fileCount > 0 else { return false }
        return sameBytes(
            UnsafeRawPointer(bitPattern: left.pointee.file).unsafelyUnwrapped,
            UnsafeRawPointer(bitPattern: right.pointee.file).unsafelyUnwrapped,
            count: left.pointee.fileCount
        )
    }

    /// Whether two keys with arguments, equal in every word, have equal argument values.
    @usableFromInline
    static func sameArguments(_ left: UnsafePointer<DefinitionKey>, _ right: UnsafePointer<DefinitionKey>) -> Bool {
        guard let leftArguments = left.pointee.arguments, let rightArguments = right.pointee.arguments else {
            return false
        }
        return leftArguments === rightArguments || leftArguments == rightArguments
    }

    @usableFromInline
    static func sameBytes(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
        UnsafeRawBufferPointer(start: left, count: count).elementsEqual(
            UnsafeRawBufferPointer(start: right, count: count)
        )
    }

    /// Whether two keys name the same slot.
    func matches(_ other: DefinitionKey) -> Bool {
        withUnsafePointer(to: self) { left in
            withUnsafePointer(to: other) { right in Self.same(left, right) }
        }
    }

    /// The member name or explicit key.
    var nameDescription: String {
        if nameCount < 0 {
            let value = UInt32(truncatingIfNeeded: UInt(bitPattern: name) & ~Self.scalarFlag)
            return String(UnicodeScalar(value).map(Character.init) ?? "?")
        }
        return String(decoding: UnsafeRawBufferPointer(start: name, count: nameCount), as: UTF8.self)
    }

    /// Stops when this key is read as another type than `first`, the definition that first used it.
    /// Only an explicit key can meet this: a default key's type is part of its identity.
    func requireSameType(as first: DefinitionKey) {
        if ObjectIdentifier(first.type) != ObjectIdentifier(type) {
            Failure.explicitKeyTypeMismatch(self, first: first)
        }
    }

    /// Whether the member is a method with parameters, whose calls the key can't tell apart.
    var isMethodWithParameters: Bool {
        !isExplicit && argumentBits == 0 && member.description.contains(":")
    }

    /// Whether the key carries argument values (or did, before its graph closed).
    var hasArguments: Bool { argumentBits & 1 != 0 }

    /// The key without its arguments or injected object: the slot an explicit key's type belongs to.
    var withoutArguments: DefinitionKey {
        var key = self
        key.arguments = nil
        key.argumentBits = 0
        return key
    }

    /// `AssemblyType.member`, or `AssemblyType.member (key "name")` for an explicit key, followed by
    /// the arguments' values, if any: `KnightsAssembly.knight(named:) ("Lancelot")`.
    var description: String {
        let site = "\(String(describing: assembly)).\(member)"
        let named = isExplicit ? "\(site) (key \"\(nameDescription)\")" : site
        guard let arguments else { return named }
        return "\(named) (\(arguments.description))"
    }
}

extension DefinitionKey: Hashable {
    @usableFromInline
    static func == (left: DefinitionKey, right: DefinitionKey) -> Bool {
        left.matches(right)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(hashBits)
    }
}
