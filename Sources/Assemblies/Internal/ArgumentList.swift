/// The argument values of one read of a definition that takes arguments, with their static types.
///
/// Two lists are equal when their values were passed as the same types *and* are equal:
/// `AnyHashable(1) == AnyHashable(1.0)`, but `label(1)` and `label(1.0)` of two overloads that
/// take an `Int` and a `Double` name two instances. The values are kept as they were passed, as one
/// tuple in a ``ValueList`` whose type is that tuple's — no `AnyHashable` box, no array — so that a
/// read with arguments allocates one object for them. (`ValueList` has one generic parameter, a
/// tuple: a class generic over a parameter pack would need the Swift 5.9 runtime, iOS 17 and
/// macOS 14, see <doc:Platforms>.) A ``DefinitionKey`` refers to its list without retaining it
/// (`unowned(unsafe)`): the `define` call that made the key keeps the list alive while the read
/// runs, and whatever keeps the key longer keeps a ``StoredKey``, which retains it.
@usableFromInline
class ArgumentList: Equatable, CustomStringConvertible {
    /// The values' hash, with the lowest bit set (see ``DefinitionKey/argumentBits``).
    @usableFromInline let bits: UInt

    @usableFromInline
    init(bits: UInt) {
        self.bits = bits
    }

    /// The list of `values`, of the static types `Value`.
    @inlinable
    static func of<each Value: Hashable>(_ values: repeat each Value) -> ArgumentList {
        var hasher = Hasher()
        repeat hasher.combine(each values)
        // The closures are made here, where `Value` is known: they are specialized with the caller
        // (a method of a generic class is not).
        return ValueList(
            (repeat each values),
            bits: UInt(bitPattern: hasher.finalize()) | 1,
            equal: { left, right in
                for (left, right) in repeat (each left, each right) {
                    if left != right { return false }
                }
                return true
            },
            describe: { values in
                var descriptions: [String] = []
                // As `AnyHashable` sees a value: an optional that holds one is written as the value.
                for value in repeat each values {
                    descriptions.append(String(reflecting: AnyHashable(value).base))
                }
                return descriptions
            }
        )
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

/// The argument values of a read, as one tuple of their static types (a single value for one
/// argument), compared and described by closures made where the types are known (see
/// ``ArgumentList/of(_:)``).
@usableFromInline
final class ValueList<Values>: ArgumentList {
    let values: Values
    let equal: (Values, Values) -> Bool
    let describe: (Values) -> [String]

    @usableFromInline
    init(
        _ values: Values,
        bits: UInt,
        equal: @escaping (Values, Values) -> Bool,
        describe: @escaping (Values) -> [String]
    ) {
        self.values = values
        self.equal = equal
        self.describe = describe
        super.init(bits: bits)
    }

    override func hasValues(of other: ArgumentList) -> Bool {
        guard let other = other as? Self else { return false }
        return equal(values, other.values)
    }

    override var valueDescriptions: [String] {
        describe(values)
    }
}
