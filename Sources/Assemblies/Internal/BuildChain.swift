/// The definitions a thread or task was building when it claimed a stored definition's slot,
/// outermost first, ending with the claimed one: what a message says when another reader waits for
/// that slot too long, or finds a cycle through it.
///
/// A chain is a list of links that shares its beginning with the chain of the slot being built
/// below it: each link keeps only the keys read since that slot's, so that claiming a slot costs
/// the frames since the last claim, whatever the depth. (Copying the whole chain into every slot
/// made N nested singletons cost N² in time and memory: `DESIGN-singletons.md`, case G.) The keys
/// are put together only for a message.
final class BuildChain: @unchecked Sendable {
    // @unchecked: immutable once made (`previous` is only taken apart by `deinit`), and a StoredKey
    // is immutable too.

    /// The keys read since `previous`'s last one and before ``last``, outermost first: most often
    /// none (a slot claimed directly in the body of the one below it), and then no array.
    private let between: [StoredKey]
    /// The claimed definition's key.
    private let last: StoredKey
    private var previous: BuildChain?

    /// A link of `keys`, outermost first, which must not be empty.
    convenience init(_ keys: [StoredKey], after previous: BuildChain?) {
        self.init(between: Array(keys.dropLast()), last: keys.last!, after: previous)
    }

    init(between: [StoredKey], last: StoredKey, after previous: BuildChain?) {
        self.between = between
        self.last = last
        self.previous = previous
    }

    /// Every key of the chain, outermost first.
    var all: [StoredKey] {
        var parts: [[StoredKey]] = []
        var link: BuildChain? = self
        while let current = link {
            parts.append(current.between + [current.last])
            link = current.previous
        }
        return parts.reversed().flatMap { $0 }
    }

    /// The definitions of the chain, outermost first.
    var definitions: [DefinitionKey] { all.map(\.key) }

    deinit {
        // Released link by link, not recursively: a chain 10,000 links long would otherwise release
        // itself 10,000 calls deep.
        var link = previous.take()
        while var current = link {
            link = nil
            // Another slot's chain still needs the rest: releasing `current` only counts down.
            guard isKnownUniquelyReferenced(&current) else { break }
            // `current` is freed at the end of this pass, with nothing left to release after it.
            link = current.previous.take()
        }
    }
}
