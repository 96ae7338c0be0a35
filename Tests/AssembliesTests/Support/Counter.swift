import Assemblies

/// A thread-safe tally, kept by an assembly to count how often its definition bodies run.
final class Counter: @unchecked Sendable {
    // @unchecked: `counts` is only touched while holding `lock`.
    private let lock = NSLockish()
    private var counts: [String: Int] = [:]

    func tick(_ name: String = #function) {
        lock.withLock { counts[name, default: 0] += 1 }
    }

    subscript(name: String) -> Int {
        lock.withLock { counts[name, default: 0] }
    }
}
