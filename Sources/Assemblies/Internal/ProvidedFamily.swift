/// The family a provider reads from (see ``Providing``), held weakly, and where the provider was
/// made, for the message when it is called after the family's root is gone.
///
/// `@unchecked Sendable`: `family` is written once, in `init`, and a weak reference is loaded
/// atomically by the runtime; everything else is immutable.
final class ProvidedFamily: @unchecked Sendable {
    private weak var family: Family?
    /// The family's root type, which the message names once the family is gone.
    private let rootType: Assembly.Type
    /// The assembly the provider was made from, and the place of the call.
    private let madeFrom: Assembly.Type
    private let file: StaticString
    private let line: UInt

    init(_ family: Family, made madeFrom: Assembly.Type, file: StaticString, line: UInt) {
        self.family = family
        rootType = family.configuration.rootType
        self.madeFrom = madeFrom
        self.file = file
        self.line = line
    }

    /// The family's instance of `type`, which holds the family for as long as the caller holds it;
    /// stops when the family's root has been released.
    func assembly<A: Assembly>(of type: A.Type) -> A {
        // The family's root is nil as soon as the root's last reference goes, before its deinit
        // marks the family orphaned: either says the root is gone.
        guard let family, !family.isOrphaned, family.root != nil else {
            Failure.providerOutlivedItsRoot(rootType, madeFrom: madeFrom, file: file, line: line)
        }
        if family.refusesNewReads {
            Failure.providerCalledDuringShutdown(rootType, madeFrom: madeFrom, file: file, line: line)
        }
        return family.assembly(of: type)
    }
}
