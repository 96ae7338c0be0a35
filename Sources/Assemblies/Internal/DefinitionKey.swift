/// The identity of a definition.
///
/// A default key is the definition site: the assembly type, the member name (`#function`), the
/// result type and the place in the source (`#fileID` and `#line` of the `define` call), plus the
/// identity of an injected object or the values of the arguments. The place is what tells a
/// subclass's override of a definition from the superclass's definition it reads with `super`:
/// both have the same assembly type, name and result type. An explicit key (`withKey:`) is the name
/// alone (plus an injected object or arguments) and is shared by the whole family; it has no line
/// (0), and its assembly and result types are kept only to diagnose a key used for two types.
///
/// Keys are hashed and compared as words, without hashing strings. The hash is computed where the
/// key is made — in the getter, where it is a constant the compiler folds — and stored, so that the
/// engine, out of line, never computes it. The name
/// and the file are `StaticString`s compared by address first, and by their bytes only when the
/// addresses differ and the other words match. Arguments are compared by value (and by their
/// static types) only when every word matches.
///
/// A key is trivial to copy — every read makes one (the getter, or from the parts a getter passes
/// ``enterObjectGraphRead(of:hash:name:place:file:type:)``), and a frame keeps a copy — so it
/// refers to its ``ArgumentList`` without retaining it. The `define` call that makes a key keeps
/// the list alive while the read runs; whatever keeps a key beyond that keeps it as a
/// ``StoredKey``, which retains the list (see `Internal/UnsafeCode.md`).
@usableFromInline
struct DefinitionKey: @unchecked Sendable {
    // @unchecked: immutable; its pointers are to the bytes of static strings and to an immutable
    // ArgumentList. A ``Definition`` carries one into an async body, which may run on any thread.

    // MARK: Identity

    /// A hash of the words below and the name's first bytes (see ``hash(argument:name:nameCount:line:)``).
    @usableFromInline let hashBits: UInt
    /// The identity of the object a definition injects into, or the hash of its arguments with the
    /// lowest bit set (an object's address never has it), or 0.
    @usableFromInline let argumentBits: UInt
    /// The argument values of a definition that takes arguments, or nil; not retained (see above).
    /// A key left in the resolver's table after its graph closed drops them (see
    /// ``Resolver/closeGraph()``), so that the table keeps no argument alive, and then matches no
    /// other key.
    @usableFromInline unowned(unsafe) var arguments: ArgumentList?
    /// The UTF-8 bytes of the member name or explicit key.
    @usableFromInline let name: UnsafeRawPointer
    /// The line (the high 32 bits), and the name's length plus one (the low 31 bits) with
    /// ``endsWithParametersFlag``: one word, so that a key is eight words on a 64-bit platform (see
    /// ``line``, ``nameCount`` and ``isMethodWithParameters``).
    @usableFromInline let place: UInt64
    /// The number of bytes at `name`, or -1 when `name` holds a lone Unicode scalar's value (with
    /// the top bit set, so it is never null).
    @inlinable
    var nameCount: Int {
        Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: place) & ~Self.endsWithParametersFlag) &- 1
    }

    /// The bit of ``place`` set when the key is a default key whose member is a method with
    /// parameters (see ``isMethodWithParameters``): found where the key is made, where the name is a
    /// constant and the test folds away, so that a thread's first read of a key reads none of its
    /// name's bytes.
    @inlinable
    static var endsWithParametersFlag: UInt32 { 1 << 31 }

    /// The line of the `define` call, or 0 for an explicit key (a `#line` is never 0).
    @inlinable
    var line: UInt { UInt(truncatingIfNeeded: place >> 32) }

    /// For a default key, the NUL-terminated UTF-8 bytes of the `define` call's `#fileID`. For an
    /// explicit key, which has no place in its identity, the member (`#function`) that defines it,
    /// for messages, as ``bits(of:)`` gives it.
    @usableFromInline let file: UInt
    /// The assembly type whose member defines the key (for an explicit key: the first definer, and
    /// no part of its identity).
    @usableFromInline let assembly: Assembly.Type
    /// The result type of the definition (for an explicit key: no part of its identity).
    @usableFromInline let type: Any.Type

    /// The key of a `define` call: its site (or explicit key), and the identity of the object it
    /// injects into or the bits of its `arguments` (see ``argumentBits``), or 0.
    @inlinable
    @inline(__always)
    init(
        assembly: Assembly.Type,
        member: StaticString,
        type: Any.Type,
        explicitKey: StaticString?,
        file: StaticString,
        line: UInt,
        argumentBits: UInt,
        arguments: ArgumentList?
    ) {
        let name = Self.bits(of: explicitKey ?? member)
        self.name = UnsafeRawPointer(bitPattern: name.word).unsafelyUnwrapped
        self.file = explicitKey == nil ? Self.bits(of: file).word : Self.bits(of: member).word
        let line = explicitKey == nil ? line : 0
        if UInt64(line) >> 32 != 0 { Failure.lineTooLarge(line, assembly: assembly, member: member) }
        place = Self.place(
            line: line,
            nameCount: name.count,
            endsWithParameters: explicitKey == nil && Self.endsWithParameters(name.word, count: name.count)
        )
        self.argumentBits = argumentBits
        self.assembly = assembly
        self.type = type
        self.arguments = arguments
        hashBits = Self.hash(argument: argumentBits, name: self.name, nameCount: name.count, line: line)
    }

    /// ``place``: `line`, `nameCount` (plus one) and whether the name ends with parameters, in one
    /// word. A line is smaller than 2³²: a `define` given a larger one stops
    /// (``Failure/lineTooLarge(_:assembly:member:)``; a `#line` always is, and the check folds
    /// away), so that no line wraps to another, or to 0, which would make the key explicit. A name
    /// is a literal, far shorter than 2 GiB.
    @inlinable
    @inline(__always)
    static func place(line: UInt, nameCount: Int, endsWithParameters: Bool) -> UInt64 {
        let count = UInt32(truncatingIfNeeded: nameCount &+ 1) | (endsWithParameters ? endsWithParametersFlag : 0)
        return UInt64(truncatingIfNeeded: line) << 32 | UInt64(count)
    }

    /// Whether a member name, as ``bits(of:)`` gives it, is a method's with parameters, as
    /// `#function` spells it: ending with the last label's `:` and the `)` — `knight(named:quests:)`,
    /// `inject(_:)` (or a subscript's, or an initializer's).
    @inlinable
    @inline(__always)
    static func endsWithParameters(_ word: UInt, count: Int) -> Bool {
        guard count >= 3, let name = UnsafeRawPointer(bitPattern: word) else { return false }
        return name.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self) == UInt16(0x29_3A).littleEndian
    }

    /// Whether a getter may pass the key by its parts, to ``enterObjectGraphRead(of:hash:name:place:file:type:)``
    /// or ``enterPrototypeRead(hash:name:place:file:type:of:)``, all in registers: whether it has
    /// no injected object and no arguments (a constant in the getter).
    @inlinable
    @inline(__always)
    var isPassedByParts: Bool { argumentBits == 0 }

    /// The key of a definition with no injected object and no arguments, from the parts a getter
    /// passes (see ``isPassedByParts``).
    init(
        hash: UInt,
        name: UnsafeRawPointer,
        place: UInt64,
        file: UInt,
        assembly: Assembly.Type,
        type: Any.Type
    ) {
        hashBits = hash
        argumentBits = 0
        arguments = nil
        self.name = name
        self.place = place
        self.file = file
        self.assembly = assembly
        self.type = type
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
    var isExplicit: Bool { line == 0 }

    /// The assembly type's identity, or 0 for an explicit key.
    @inlinable
    var assemblyBits: UInt { isExplicit ? 0 : UInt(bitPattern: ObjectIdentifier(assembly)) }

    /// The result type's identity, or 0 for an explicit key.
    @inlinable
    var typeBits: UInt { isExplicit ? 0 : UInt(bitPattern: ObjectIdentifier(type)) }

    /// A hash of a key: its name's length and first eight bytes, its line and its argument bits,
    /// mixed with one multiplication. Inlined where the key is made, it is a constant for a
    /// definition without arguments. It leaves out the assembly and result types, which are only
    /// known at run time: the keys of one site read through a subclass, or with another result type
    /// by a generic member, share a hash, and are told apart when compared.
    @inlinable
    @inline(__always)
    static func hash(argument: UInt, name: UnsafeRawPointer, nameCount: Int, line: UInt) -> UInt {
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
        let words = (argument &* 961) ^ nameBits ^ UInt(bitPattern: nameCount) ^ (line &* 29_791)
        // The golden-ratio multiplier, cut to 32 bits on 32-bit watchOS (armv7k, arm64_32).
        let mixed = words &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        return mixed ^ (mixed >> (UInt.bitWidth / 2))
    }

    /// Whether two keys name the same slot.
    ///
    /// Keys of one definition site nearly always share their literals' addresses: the words are
    /// compared first, and the bytes only when an address differs (a literal emitted twice).
    /// (Borrowed, and compared without `&&` and `||`, whose autoclosures would copy the keys.)
    @inline(__always)
    static func same(_ left: borrowing DefinitionKey, _ right: borrowing DefinitionKey) -> Bool {
        if left.hashBits != right.hashBits { return false }
        if left.place != right.place { return false }
        if left.argumentBits != right.argumentBits { return false }
        if left.line != 0 {
            if ObjectIdentifier(left.type) != ObjectIdentifier(right.type) { return false }
            if ObjectIdentifier(left.assembly) != ObjectIdentifier(right.assembly) { return false }
            if left.file != right.file {
                if !sameLiterals(copy left, copy right) { return false }
                if left.argumentBits & 1 == 0 { return true }
                return sameArguments(copy left, copy right)
            }
        }
        if left.name != right.name {
            if !sameLiterals(copy left, copy right) { return false }
        }
        if left.argumentBits & 1 == 0 { return true }
        return sameArguments(copy left, copy right)
    }

    /// ``same(_:_:)`` for a key kept in memory, a table's: its words are read one by one, as they are
    /// compared. (Given the key by value, Swift loads all eight words of it first, onto the stack.)
    @inline(__always)
    static func same(at left: UnsafePointer<DefinitionKey>, _ right: borrowing DefinitionKey) -> Bool {
        if left.pointee.hashBits != right.hashBits { return false }
        if left.pointee.place != right.place { return false }
        if left.pointee.argumentBits != right.argumentBits { return false }
        if right.line != 0 {
            if ObjectIdentifier(left.pointee.type) != ObjectIdentifier(right.type) { return false }
            if ObjectIdentifier(left.pointee.assembly) != ObjectIdentifier(right.assembly) { return false }
            if left.pointee.file != right.file { return sameAfterWords(left.pointee, copy right) }
        }
        if left.pointee.name != right.name { return sameAfterWords(left.pointee, copy right) }
        if right.argumentBits & 1 == 0 { return true }
        return sameAfterWords(left.pointee, copy right)
    }

    /// ``same(at:_:)`` for keys equal in their hash, line, arguments' bits, type and assembly, whose
    /// literals are at different addresses or which have arguments: out of line, so that the common
    /// case doesn't copy the keys.
    @inline(never)
    static func sameAfterWords(_ left: DefinitionKey, _ right: DefinitionKey) -> Bool {
        if left.name != right.name || (left.line != 0 && left.file != right.file) {
            if !sameLiterals(left, right) { return false }
        }
        if left.argumentBits & 1 == 0 { return true }
        return sameArguments(left, right)
    }

    /// Whether two keys whose names or files are at different addresses have the same name and
    /// file bytes. (A name's address determines its count: two literals that start at one address
    /// are one literal, since each ends with a NUL.)
    @inline(never)
    static func sameLiterals(_ left: DefinitionKey, _ right: DefinitionKey) -> Bool {
        guard left.nameCount == right.nameCount else { return false }
        guard
            left.name == right.name
                || (left.nameCount >= 0 && sameBytes(left.name, right.name, count: left.nameCount))
        else { return false }
        // An explicit key's file word is its member, no part of its identity.
        return left.line == 0 || left.file == right.file || sameFile(left.file, right.file)
    }

    /// Whether two `#fileID`s at different addresses are the same file (a literal may be emitted
    /// twice when a getter is inlined into another object file). Both are NUL-terminated.
    static func sameFile(_ left: UInt, _ right: UInt) -> Bool {
        guard var left = UnsafePointer<UInt8>(bitPattern: left), var right = UnsafePointer<UInt8>(bitPattern: right)
        else { return false }
        while left.pointee == right.pointee {
            if left.pointee == 0 { return true }
            left += 1
            right += 1
        }
        return false
    }

    /// Whether two keys with arguments, equal in every word, have equal argument values.
    @inline(never)
    static func sameArguments(_ left: DefinitionKey, _ right: DefinitionKey) -> Bool {
        guard let leftArguments = left.arguments, let rightArguments = right.arguments else { return false }
        return leftArguments === rightArguments || leftArguments == rightArguments
    }

    static func sameBytes(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
        UnsafeRawBufferPointer(start: left, count: count).elementsEqual(
            UnsafeRawBufferPointer(start: right, count: count)
        )
    }

    /// Whether two keys name the same slot.
    func matches(_ other: DefinitionKey) -> Bool {
        Self.same(self, other)
    }

    /// The member name or explicit key.
    var nameDescription: String {
        Self.describe(word: UInt(bitPattern: name), count: nameCount)
    }

    /// The member name (`#function`).
    var member: String {
        guard isExplicit else { return nameDescription }
        // The file word holds the member's bytes, NUL-terminated, or a lone scalar's value.
        if file & Self.scalarFlag != 0 { return Self.describe(word: file, count: -1) }
        return String(cString: UnsafePointer<CChar>(bitPattern: file)!)
    }

    /// A string that ``bits(of:)`` gave as `word` and `count`.
    private static func describe(word: UInt, count: Int) -> String {
        if count < 0 {
            let value = UInt32(truncatingIfNeeded: word & ~scalarFlag)
            return String(UnicodeScalar(value).map(Character.init) ?? "?")
        }
        let start = UnsafeRawPointer(bitPattern: word)!
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Stops when this key is read as another type than `first`, the definition that first used it.
    /// Only an explicit key can meet this: a default key's type is part of its identity.
    func requireSameType(as first: DefinitionKey) {
        if ObjectIdentifier(first.type) != ObjectIdentifier(type) {
            Failure.explicitKeyTypeMismatch(self, first: first)
        }
    }

    /// Whether the member is a method with parameters, whose calls the key can't tell apart: a
    /// default key without an injected object or arguments whose name ends with parameters (see
    /// ``endsWithParameters(_:count:)``, asked where the key is made). Every key a thread reads for
    /// the first time asks.
    var isMethodWithParameters: Bool {
        UInt32(truncatingIfNeeded: place) & Self.endsWithParametersFlag != 0 && argumentBits == 0
    }

    /// Whether reads of the key need the checks of ``Resolver/enter(_:scope:)``: an explicit key (its
    /// type and scope), a method with parameters (read twice in a graph), or arguments.
    var readsNeedChecks: Bool { isExplicit || isMethodWithParameters || hasArguments }

    /// Whether the key carries argument values (or did, before its graph closed).
    var hasArguments: Bool { argumentBits & 1 != 0 }

    /// The key without its arguments or injected object: the slot an explicit key's type belongs to.
    var withoutArguments: DefinitionKey {
        DefinitionKey(withoutArgumentsOf: self)
    }

    private init(withoutArgumentsOf key: DefinitionKey) {
        name = key.name
        place = key.place
        file = key.file
        argumentBits = 0
        assembly = key.assembly
        type = key.type
        arguments = nil
        hashBits = Self.hash(argument: 0, name: name, nameCount: key.nameCount, line: key.line)
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

    /// The hash a `Dictionary` or `Set` of keys uses: the key's own hash, already mixed where the key
    /// was made (and, for arguments, by a `Hasher` with the process's random seed), with the
    /// collection's seed — without running `Hasher` again, which cost a singleton store about 250
    /// instructions per lookup. (`Hashable`'s customization point for types that hash themselves.)
    @usableFromInline
    func _rawHashValue(seed: Int) -> Int {
        Int(bitPattern: hashBits) ^ seed
    }
}
