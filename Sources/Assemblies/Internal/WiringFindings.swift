/// What a ``WiringCheck`` running in the current task has found so far. While one runs, the family
/// watches the stored definitions it builds for captive dependencies whatever its mode, and hands
/// those it finds here instead of doing what its mode says (see ``Family/report(_:)``); and each
/// root read by a key path is named by the first definition it reads (``topLevelRead(_:)``).
final class WiringFindings: Sendable {
    /// The check running in this task, if any.
    @TaskLocal static var current: WiringFindings?

    /// How many checks are running, in any task: while none is, an intercepted top-level read
    /// doesn't look for ``current`` (see ``noteTopLevelRead(_:)``). Never deallocated.
    static let running = AtomicCount()

    /// Tells the check running in this task, if any, that its root has read `key` at the top level.
    static func noteTopLevelRead(_ key: DefinitionKey) {
        if !running.isZero { current?.topLevelRead(key) }
    }

    private let state = Locked(State())

    private struct State {
        var problems: [WiringReport.Problem] = []
        /// The first definition the root being read has read at the top level, or nil.
        var rootDefinition: String?
        var namesRoot = false
    }

    func add(_ problem: WiringReport.Problem) {
        state.withLock { $0.problems.append(problem) }
    }

    var all: [WiringReport.Problem] { state.withLock { $0.problems } }

    /// The check begins to read a root, named by the first definition it reads.
    func beginRoot() {
        state.withLock { state in
            state.rootDefinition = nil
            state.namesRoot = true
        }
    }

    /// The root being read has read `key` at the top level — in the sandbox, where every read of
    /// the family is intercepted (see ``Resolver/decideIntercepted(_:scope:in:isInGraph:suspends:)``).
    func topLevelRead(_ key: DefinitionKey) {
        guard state.withLock({ $0.namesRoot }) else { return }
        let name = key.description  // outside the lock: an argument's description is user code
        state.withLock { state in
            guard state.namesRoot else { return }
            state.rootDefinition = name
            state.namesRoot = false
        }
    }

    /// The first definition the root just read has read, if any.
    func endRoot() -> String? {
        state.withLock { state in
            state.namesRoot = false
            return state.rootDefinition
        }
    }
}
