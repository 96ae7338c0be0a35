/// The argument values of one read of a definition that takes arguments, with their static types.
///
/// Two lists are equal when their values were passed as the same types *and* are equal:
/// `AnyHashable(1) == AnyHashable(1.0)`, but `label(1)` and `label(1.0)` of two overloads that
/// take an `Int` and a `Double` name two instances. The values are kept as they were passed, in a
/// ``PackedArgumentList`` whose type is their static types — no `AnyHashable` box, no array — so
/// that a read with arguments allocates one object for them. A ``DefinitionKey`` refers to its list
/// without retaining it (`unowned(unsafe)`): the `define` call that made the key keeps the list alive
/// while the read runs, and whatever keeps the key longer keeps a ``StoredKey``, which retains it.
@usableFromInline
class ArgumentList: Equatable, CustomStringConvertible {
    /// The values' hash, with the lowest bit set (see ``DefinitionKey/argumentBits``).
    @usableFromInline let bits: UInt

    @usableFromInline
    init(bits: UInt) {
        self.bits = bits
    }

    /// Whether `other`, a list of the same class, holds equal values.
    func hasValues(of other: ArgumentList) -> Bool {
        preconditionFailure("Assemblies: an argument list of no known types")
    }

    /// Each value as Swift would write it: `"Lancelot"`, `3`.
    var valueDescriptions: [String] {
        preconditionFailure("Assemblies: an argument list of no known types")
    }

    @usableFromInline
    static func == (left: ArgumentList, right: ArgumentList) -> Bool {
        left === right
            || (type(of: left) == type(of: right) && left.bits == right.bits && left.hasValues(of: right))
    }

    /// The values as Swift would write them: `"Lancelot", 3`.
    @usableFromInline
    var description: String {
        valueDescriptions.joined(separator: ", ")
    }
}

/// The argument values of a read, of the static types `Value`.
@usableFromInline
final class PackedArgumentList<each Value: Hashable>: ArgumentList {
    @usableFromInline let values: (repeat each Value)
    /// Compares two lists' values: made where the list is, where `Value` is known, so that the
    /// comparison is specialized (a method of this generic class is not).
    @usableFromInline let equal: (PackedArgumentList, PackedArgumentList) -> Bool

    @inlinable
    init(_ values: repeat each Value) {
        var hasher = Hasher()
        repeat hasher.combine(each values)
        self.values = (repeat each values)
        equal = { left, right in
            for (left, right) in repeat (each left.values, each right.values) {
                if left != right { return false }
            }
            return true
        }
        super.init(bits: UInt(bitPattern: hasher.finalize()) | 1)
    }

    override func hasValues(of other: ArgumentList) -> Bool {
        guard let other = other as? Self else { return false }
        return equal(self, other)
    }

    override var valueDescriptions: [String] {
        var descriptions: [String] = []
        // As `AnyHashable` sees a value: an optional that holds one is written as the value.
        for value in repeat each values {
            descriptions.append(String(reflecting: AnyHashable(value).base))
        }
        return descriptions
    }
}
