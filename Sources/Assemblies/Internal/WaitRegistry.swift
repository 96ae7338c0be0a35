/// Who waits for whom, across threads: the wait-for graph that keeps two threads building
/// singletons that need each other from waiting forever.
///
/// It is touched only when a thread or task starts waiting for a singleton another one builds, when
/// a slot somebody waits for changes hands, and in the rare cycles it resolves — never on the read
/// path and never while user code runs. Its lock is taken after a store's lock, never before.
///
/// Cycles are found when the wait that closes them begins: a waiter that starts waiting checks its
/// own new wait; a slot that changes hands wakes its waiters, which check again; a thread that
/// starts waiting for the frames it depends on, or whose dependency moves to another thread, wakes
/// the waiters on the cycles it closes (see ``waitersOnCycles(closedBy:)``). Nobody looks again on a
/// timer.
///
/// When thread T is about to wait for a slot owned by U, and U (directly or through other blocked
/// threads) waits for something T owns, neither could go on. T then takes U's registered in-flight
/// instance, as one thread would in a property cycle: U is blocked, so nothing runs on that object
/// concurrently. From then on T *depends on* U's frame: nothing T builds is published, and T
/// doesn't hand a finished singleton to anyone, before that frame has finished — when T would, it
/// blocks until U has finished it (see ``Resolver/awaitForeignDependencies(holding:)``). So only one of
/// the two threads runs inside the cycle at a time, and both see every instance whole.
enum WaitRegistry {
    static let lock = Lock()
    /// Registry field: the threads that depend on each frame that other threads took instances from.
    nonisolated(unsafe) private static var dependents: [FrameReference: [ResolverThread]] = [:]

    // MARK: Waiting for a slot

    /// Records that `thread` waits for `slot`, owned by `owner` — unless that would close a cycle of
    /// waits: then records nothing and returns false. One critical section, so that of two threads
    /// that start waiting for each other at once, the second always sees the first.
    ///
    /// The tasks found waiting on the way are pinned (``ResolverThread/isPinned``): a thread that
    /// finds the cycle takes an instance of another thread on it, which is safe only while that
    /// thread stays blocked — so while no task on the cycle leaves its wait when cancelled.
    static func beginWait(
        _ thread: ResolverThread,
        for slot: SingletonSlot,
        of store: SingletonStore,
        ownedBy owner: ResolverThread
    ) -> Bool {
        lock.withLock {
            var tasks: [ResolverThread] = []
            if reaches(thread, from: owner, visitingTasks: &tasks) {
                for task in tasks { task.isPinned = true }
                return false
            }
            thread.waitingFor = .slot(slot, owner: owner, store: store)
            return true
        }
    }

    /// Whether following waits from `start` leads to `target`; the tasks it passes are added to
    /// `tasks`. Registry lock held.
    private static func reaches(
        _ target: ResolverThread,
        from start: ResolverThread,
        visitingTasks tasks: inout [ResolverThread]
    ) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var next = [start]
        while let current = next.popLast() {
            if current === target { return true }
            guard seen.insert(ObjectIdentifier(current)).inserted else { continue }
            if current.isTask { tasks.append(current) }
            switch current.waitingFor {
            case .slot(_, let owner, _)?: next.append(owner)
            case .frames?: next.append(contentsOf: current.foreignDependencies.map(\.thread))
            case nil: break
            }
        }
        return false
    }

    /// The key of the slot `thread` waits for, if it waits for one: the end of its chain in the
    /// message of a cycle of waits. Takes the registry's lock, so a store's lock may be held.
    static func slotAwaited(by thread: ResolverThread) -> StoredKey? {
        lock.withLock {
            guard case .slot(let slot, _, _)? = thread.waitingFor else { return nil }
            return slot.storedKey
        }
    }

    /// Records that `thread` no longer waits. Returns whether it is pinned: from then on until it
    /// waits again, that can't change.
    @discardableResult
    static func endWait(_ thread: ResolverThread) -> Bool {
        lock.withLock {
            thread.waitingFor = nil
            return thread.isPinned
        }
    }

    /// Records that the slot threads wait for is now the concern of `owner` (nil: published or gone),
    /// so that the wait-for graph never shows a wait that has already ended.
    static func slotChanged(
        _ slot: SingletonSlot,
        of store: SingletonStore,
        owner: ResolverThread?,
        waiters: [ResolverThread]
    ) {
        lock.withLock {
            for thread in waiters {
                thread.waitingFor = owner.map { .slot(slot, owner: $0, store: store) }
            }
        }
    }

    // MARK: Taking another thread's instance

    /// Records that `thread` took the in-flight instance of `frame`, a frame of a blocked thread.
    static func take(_ frame: FrameReference, by thread: ResolverThread) {
        lock.withLock { recordDependency(of: thread, on: frame) }
    }

    /// Records that `thread` depends on `frame`, and tells the frame's thread. Registry lock held.
    private static func recordDependency(of thread: ResolverThread, on frame: FrameReference) {
        dependents[frame, default: []].append(thread)
        thread.foreignDependencies.append(frame)
        frame.thread.inbox.append(frame)
        // If it waits for frames of its own, it marks this one now (see `awaitFrames`).
        frame.thread.dependenciesSettled.broadcast()
    }

    /// Records that `thread` took an instance that `holder` holds back for frames of other threads:
    /// it now depends on the frames `holder` depends on.
    static func takeDependencies(of holder: ResolverThread, by thread: ResolverThread) {
        lock.withLock {
            for frame in holder.foreignDependencies {
                guard frame.thread !== thread else {
                    // A frame of the taker itself: it marks it as handed out (see `takeInbox`).
                    thread.inbox.append(frame)
                    continue
                }
                recordDependency(of: thread, on: frame)
            }
        }
    }

    /// The frames of `thread` that other threads took instances from since it last looked.
    static func takeInbox(of thread: ResolverThread) -> [FrameReference] {
        lock.withLock {
            defer { thread.inbox.removeAll() }
            return thread.inbox
        }
    }

    /// Called by the thread owning `frame` when it finishes: the threads that depend on it now
    /// depend on `next` (the thread's next unfinished dependency), or on nothing.
    static func finished(_ frame: FrameReference, next: FrameReference?) {
        let toWake: [Waiting] = lock.withLock {
            guard let threads = dependents.removeValue(forKey: frame) else { return [] }
            var toWake: [Waiting] = []
            for thread in threads {
                thread.foreignDependencies.removeAll { $0 == frame }
                if let next, next.thread !== thread {
                    thread.foreignDependencies.append(next)
                    dependents[next, default: []].append(thread)
                    // A new edge of the wait-for graph, if the thread waits for its frames.
                    if case .frames? = thread.waitingFor { toWake += waitersOnCycles(closedBy: thread) }
                }
                thread.dependenciesSettled.broadcast()
            }
            return toWake
        }
        wake(toWake)
    }

    /// Records that `thread` waits for the frames of other threads it depends on; false when it
    /// depends on none.
    static func beginAwaitingFrames(of thread: ResolverThread) -> Bool {
        let toWake: [Waiting]? = lock.withLock {
            guard !thread.foreignDependencies.isEmpty else { return nil }
            thread.waitingFor = .frames
            return waitersOnCycles(closedBy: thread)
        }
        guard let toWake else { return false }
        wake(toWake)
        return true
    }

    // MARK: Cycles closed by a thread's new waits

    /// A slot some thread or task waits for, and its store.
    typealias Waiting = (store: SingletonStore, slot: SingletonSlot)

    /// The slots waited for on the cycles of waits that run through `thread`, whose waits have just
    /// changed — empty when none does. Their waiters look again when woken, and one of them breaks
    /// the cycle (see ``beginWait(_:for:of:ownedBy:)``): a cycle is found when the wait that closes
    /// it begins, never by a thread that looks again after a while. The threads are preferred,
    /// which take an instance and go on; tasks, which stop with the chains, are woken only on a
    /// cycle that no thread waits on. Registry lock held.
    private static func waitersOnCycles(closedBy thread: ResolverThread) -> [Waiting] {
        // The threads on a path from what `thread` waits for back to `thread`, found depth first.
        var onCycles: [ResolverThread] = []
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(thread)]
        var path: [ResolverThread] = [thread]
        var pending: [[ResolverThread]] = [waitedFor(by: thread)]
        while let candidates = pending.last {
            guard let next = candidates.last else {
                pending.removeLast()
                path.removeLast()
                continue
            }
            pending[pending.count - 1].removeLast()
            if next === thread {
                onCycles += path
                continue
            }
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            path.append(next)
            pending.append(waitedFor(by: next))
        }
        var threads: [Waiting] = []
        var tasks: [Waiting] = []
        for waiter in onCycles {
            guard case .slot(let slot, _, let store)? = waiter.waitingFor else { continue }
            if waiter.isTask { tasks.append((store, slot)) } else { threads.append((store, slot)) }
        }
        return threads.isEmpty ? tasks : threads
    }

    /// The threads and tasks `thread` waits for. Registry lock held.
    private static func waitedFor(by thread: ResolverThread) -> [ResolverThread] {
        switch thread.waitingFor {
        case .slot(_, let owner, _)?: [owner]
        case .frames?: thread.foreignDependencies.map(\.thread)
        case nil: []
        }
    }

    /// Wakes the waiters of each slot, so that they look for a cycle of waits again. Called with no
    /// lock held: waking takes each store's lock.
    private static func wake(_ waiting: [Waiting]) {
        for (store, slot) in waiting {
            store.wakeWaiters(of: slot)
        }
    }

    /// Blocks until `thread` depends on no frame of another thread, printing `warning()` once if it
    /// has waited longer than the warning delay.
    ///
    /// While it waits, what it waits for may change hands (`finished` retargets it to the next frame)
    /// and other threads may take its own instances; each time, `changed` runs — outside the lock —
    /// with the frame it now waits for first, so that the thread can say so in the slots it holds
    /// and mark the frames taken from it.
    static func awaitFrames(
        of thread: ResolverThread,
        changed: (FrameReference?) -> Void,
        warning: () -> String
    ) {
        let delay = WaitWarning.delay
        let started = Clock.seconds()
        var hasWarned = false
        var first = lock.withLock { thread.foreignDependencies.first }
        lock.lock()
        while !thread.foreignDependencies.isEmpty {
            let now = thread.foreignDependencies.first
            if now != first || !thread.inbox.isEmpty {
                first = now
                lock.unlock()
                changed(now)
                lock.lock()
                continue
            }
            let elapsed = Clock.seconds() - started
            if !hasWarned && elapsed >= delay {
                hasWarned = true
                lock.unlock()
                WaitWarning.print(warning())
                lock.lock()
                continue
            }
            // Woken when what it waits for finishes or changes hands, or a frame is taken from it.
            thread.dependenciesSettled.wait(releasing: lock, seconds: hasWarned ? nil : delay - elapsed)
        }
        thread.waitingFor = nil
        lock.unlock()
    }

    /// The first frame of another thread that `thread` depends on.
    static func firstForeignDependency(of thread: ResolverThread) -> FrameReference? {
        lock.withLock { thread.foreignDependencies.first }
    }
}
