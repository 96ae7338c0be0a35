/// What a ``WiringCheck`` found: every problem, in the order met.
public struct WiringReport: Sendable, CustomStringConvertible {
    /// A problem a ``WiringCheck`` found.
    public enum Problem: Sendable, CustomStringConvertible {
        /// Reading the root named `root` threw `error`.
        case threw(root: String, error: any Error)
        /// A longer-lived instance keeps a shorter-lived shared one.
        case captiveDependency(CaptiveDependency)
        /// An override no read used, as `AssemblyType.member` (or the substitute's type).
        case unusedOverride(String)
        /// Reading the root named `root` misused the library, and stopped with `message`, which names
        /// the definitions and the fix — a message that would have stopped the program.
        case misuse(root: String, message: String)

        /// What happened, and how to fix it.
        public var description: String {
            switch self {
            case .threw(let root, let error): "reading \(root) threw \(error)"
            case .captiveDependency(let captive): captive.description
            case .unusedOverride(let description):
                "the override of \(description) was never used. Check that it names a definition (or "
                    + "collaborator type) your code reads, or remove it."
            case .misuse(let root, let message): "reading \(root) stopped: \(message)"
            }
        }
    }

    /// Every problem found; empty when the roots are wired as they should be.
    public let problems: [Problem]

    /// One line per problem, or a line that says there is none.
    public var description: String {
        problems.isEmpty
            ? "The wiring check found no problem."
            : problems.map { "- \($0)" }.joined(separator: "\n")
    }
}
