/// A ``DefinitionKey`` kept beyond the read that made it, with the argument values it names.
///
/// A `DefinitionKey` doesn't retain its ``ArgumentList`` (it must stay trivial to copy on the read
/// path); everything the library keeps — singleton slots, overrides, the chains in messages —
/// keeps a `StoredKey` instead, made while the read that owns the list runs.
struct StoredKey: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: `key` and `arguments` are immutable; an ArgumentList is immutable too.

    /// The key; its `arguments` stay valid for as long as this value exists.
    let key: DefinitionKey
    /// Keeps `key.arguments` alive.
    private let arguments: ArgumentList?

    /// Keeps `key`: call it while the read that made `key` runs.
    init(_ key: DefinitionKey) {
        self.key = key
        arguments = key.arguments
    }

    var description: String { key.description }
}
