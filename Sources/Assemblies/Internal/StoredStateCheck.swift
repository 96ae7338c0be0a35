/// The check, in debug builds, that an assembly type keeps no mutable state of its own.
///
/// An assembly is shared by every thread that reads its family, and Swift can't check that for a
/// subclass of a non-final class: each restates `@unchecked Sendable`, which turns the compiler's
/// check off. So the first time an assembly of each type is created in a debug build, this reads
/// the type's stored properties from the Swift runtime's reflection metadata, and stops at the first
/// `var` — a stored variable, a `lazy var`, a property wrapper's storage — naming it.
///
/// What it can't see: a `let` of a type that isn't `Sendable` (Sendable leaves no trace at run
/// time), and types built without reflection metadata. See `UnsafeCode.md` for the metadata layout
/// it reads.
enum StoredStateCheck {
    private static let checked = Locked<Set<ObjectIdentifier>>([])

    /// Stops when `type`, or a superclass of it below ``Assembly``, declares a stored `var`; each type
    /// is looked at once.
    static func check(_ type: Assembly.Type) {
        #if DEBUG && !_ptrauth(_arm64e)
        guard checked.withLock({ $0.insert(ObjectIdentifier(type)).inserted }) else { return }
        var current: AnyClass? = type
        while let someClass = current, someClass != Assembly.self {
            if let name = firstStoredVariable(of: someClass) {
                // Checked again next time: a misuse a wiring check reported stops an ordinary read.
                checked.withLock { _ = $0.remove(ObjectIdentifier(type)) }
                Failure.mutableStoredProperty(someClass, name)
            }
            current = _getSuperclass(someClass)
        }
        #endif
    }

    #if DEBUG && !_ptrauth(_arm64e)
    /// The name of the first stored `var` that `someClass` itself declares, read from its field
    /// descriptor; nil when it has none, or no reflection metadata.
    private static func firstStoredVariable(of someClass: AnyClass) -> String? {
        let metadata = unsafeBitCast(someClass, to: UnsafeRawPointer.self)
        // The class metadata's fields before its nominal type descriptor: isa and superclass, then on
        // platforms with Objective-C interoperability two cache words and the data word; then flags,
        // instance address point, instance size, alignment mask and reserved, class size and class
        // address point (24 bytes in all).
        #if canImport(ObjectiveC)
        let headerWords = 5
        #else
        let headerWords = 2
        #endif
        let descriptorOffset = headerWords * MemoryLayout<UnsafeRawPointer>.size + 24
        guard let descriptor = metadata.load(fromByteOffset: descriptorOffset, as: UnsafeRawPointer?.self) else {
            return nil
        }
        // A type context descriptor: flags, parent, name, access function, then `Fields`, a relative
        // pointer to the field descriptor (zero without reflection metadata).
        guard let fields = relative(descriptor + 16) else { return nil }
        // A field descriptor: mangled type name, superclass, kind (16 bits), record size (16 bits),
        // number of records (32 bits), then the records: flags (32 bits, 0x2 for a `var`), mangled
        // type name and field name (relative pointers).
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12 else { return nil }
        for index in 0..<count {
            let record = fields + 16 + index * recordSize
            let isVariable = record.load(as: UInt32.self) & 0x2 != 0
            if isVariable, let name = relative(record + 8) {
                return String(cString: name.assumingMemoryBound(to: CChar.self))
            }
        }
        return nil
    }

    /// The address a 32-bit relative pointer at `field` points to, or nil for a zero offset.
    private static func relative(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = field.load(as: Int32.self)
        return offset == 0 ? nil : field + Int(offset)
    }
    #endif
}
