/// Where one thread sleeps until another wakes it: the only way a thread of the library blocks for
/// another (see ``ResolverThread/wait(until:)``).
///
/// A wake-up is kept until the thread sleeps: waking a thread that isn't asleep yet makes its next
/// sleep return at once. So a thread can register where the change it waits for will wake it, let
/// go of that lock, and then sleep, without losing a wake-up that comes in between. Its lock is a
/// leaf: it may be taken with any other lock held, and nothing is called while it is held.
final class Parker: @unchecked Sendable {
    // @unchecked: `isWoken` is only touched while holding `lock`.
    private let lock = Lock()
    private let condition = Condition()
    private var isWoken = false

    /// Wakes the thread if it sleeps, or else makes its next sleep return at once.
    func wake() {
        lock.withLock {
            isWoken = true
            condition.broadcast()
        }
    }

    /// Sleeps until woken (since the last sleep returned), or until `seconds` have passed when
    /// given; returns whether it was woken.
    @discardableResult
    func sleep(seconds: Double?) -> Bool {
        let deadline = seconds.map { Clock.seconds() + $0 }
        return lock.withLock {
            while !isWoken {
                let left = deadline.map { $0 - Clock.seconds() }
                if let left, left <= 0 { return false }
                condition.wait(releasing: lock, seconds: left)
            }
            isWoken = false
            return true
        }
    }

    /// Whether the thread has been woken since it last slept, and if so forgets it: a sleep that
    /// returns at once, for tests that drive simulated threads from one real one.
    func takeWakeUp() -> Bool {
        lock.withLock {
            defer { isWoken = false }
            return isWoken
        }
    }
}
