/// The argument values of one read of a definition that takes arguments.
///
/// A ``DefinitionKey`` refers to its list without retaining it, so that keys stay trivial to copy
/// on the read path. Whoever keeps a key with arguments keeps its list too: the `define` call
/// while it runs, the resolver's graph until it closes (when the keys left in its table drop their
/// lists), and a ``SingletonStore`` or an ``Override`` next to the key.
@usableFromInline
final class ArgumentList {
    let values: [AnyHashable]
    /// The values' hash, with the lowest bit set (see ``DefinitionKey/argumentBits``).
    @usableFromInline let bits: UInt

    @usableFromInline
    init(_ values: [AnyHashable]) {
        self.values = values
        bits = UInt(bitPattern: values.hashValue) | 1
    }
}
