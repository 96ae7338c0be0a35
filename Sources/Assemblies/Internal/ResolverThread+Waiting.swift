/// The one loop in which a thread waits for another: for a singleton slot another thread builds
/// (``SingletonStore/claim(_:scope:for:waited:)``), for the frames of other threads it took
/// instances from (``WaitRegistry/awaitFrames(of:changed:warning:)``), and for a property wrapper
/// another thread resolves (``InjectionCell``).
extension ResolverThread {
    /// What one look at what a thread waits for found.
    enum WaitStep<Result> {
        /// The wait is over.
        case done(Result)
        /// Not yet. The look registered the thread where the change it waits for wakes it (its
        /// ``ResolverThread/parker``, made before it registered); `warning` describes the wait, for
        /// the warning printed once it has lasted ``WaitWarning/delay``.
        case waiting(warning: () -> String)
    }

    /// Looks with `step` until it is done, sleeping between looks until woken. `step` takes its own
    /// locks and returns with none held: the thread sleeps on its own ``ResolverThread/parker``,
    /// which keeps a wake-up that comes between the look and the sleep. Once the wait has lasted
    /// ``WaitWarning/delay``, prints the warning of the last look, once; no thread looks again on a
    /// timer otherwise.
    func wait<Result>(until step: () -> WaitStep<Result>) -> Result {
        var parker: Parker?  // asked for only when the thread waits: most reads never do
        let delay = WaitWarning.delay
        var started: Double?
        var hasWarned = false
        while true {
            let warning: () -> String
            switch step() {
            case .done(let result): return result
            case .waiting(let describe): warning = describe
            }
            if parker == nil { parker = WaitRegistry.parker(of: self) }
            let now = Clock.seconds()
            let elapsed = now - (started ?? now)
            started = started ?? now
            if hasWarned {
                parker?.sleep(seconds: nil)
            } else if elapsed >= delay {
                hasWarned = true
                WaitWarning.print(warning())
            } else {
                parker?.sleep(seconds: delay - elapsed)
            }
        }
    }
}
