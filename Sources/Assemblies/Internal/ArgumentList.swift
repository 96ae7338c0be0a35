/// The argument values of one read of a definition that takes arguments, with their static types.
///
/// Two lists are equal when their values are equal *and* were passed as the same types:
/// `AnyHashable(1) == AnyHashable(1.0)`, but `label(1)` and `label(1.0)` of two overloads that
/// take an `Int` and a `Double` name two instances. A ``DefinitionKey`` refers to its list without
/// retaining it (`unowned(unsafe)`): the `define` call that made the key keeps the list alive while
/// the read runs, and whatever keeps the key longer keeps a ``StoredKey``, which retains it.
@usableFromInline
final class ArgumentList: Equatable, CustomStringConvertible {
    let values: [AnyHashable]
    /// The static type of each value, as the method declared it.
    let types: [ObjectIdentifier]
    /// The values' and types' hash, with the lowest bit set (see ``DefinitionKey/argumentBits``).
    @usableFromInline let bits: UInt

    @usableFromInline
    init(values: [AnyHashable], types: [ObjectIdentifier]) {
        self.values = values
        self.types = types
        var hasher = Hasher()
        hasher.combine(values)
        hasher.combine(types)
        bits = UInt(bitPattern: hasher.finalize()) | 1
    }

    @usableFromInline
    static func == (left: ArgumentList, right: ArgumentList) -> Bool {
        left.types == right.types && left.values == right.values
    }

    /// The values as Swift would write them: `"Lancelot", 3`.
    @usableFromInline
    var description: String {
        values.map { String(reflecting: $0.base) }.joined(separator: ", ")
    }
}
