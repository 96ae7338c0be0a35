/// Who waits for whom, across threads: the wait-for graph that keeps two threads building
/// singletons that need each other from waiting forever.
///
/// It is touched only when a thread or task starts waiting for a singleton another one builds, when
/// a slot somebody waits for changes hands, and in the rare cycles it resolves — never on the read
/// path and never while user code runs. Its lock is taken after a store's (or a property wrapper's)
/// lock, never before; only a thread's ``Parker`` is locked inside it.
///
/// Cycles are found when the wait that closes them begins: a waiter that starts waiting checks its
/// own new wait; a slot that changes hands wakes its waiters, which leave the graph and check again
/// if they wait again; a thread that starts waiting for the frames it depends on, or whose
/// dependency moves to another thread, wakes the waiters on the cycles it closes (see
/// ``breakers(ofCyclesClosedBy:)``). Nobody looks again on a timer. A thread that waits for frames
/// of other threads stops waiting once one of its own frames is taken (see
/// ``Resolver/awaitForeignDependencies(holding:)``), so no cycle is made of such waits alone.
///
/// When thread T is about to wait for a slot owned by U, and U (directly or through other blocked
/// threads) waits for something T owns, neither could go on. T then takes U's registered in-flight
/// instance, as one thread would in a property cycle: U is blocked, so nothing runs on that object
/// concurrently. From then on T *depends on* U's frame: nothing T builds is published, and T
/// doesn't hand a finished singleton to anyone, before that frame has finished — when T would, it
/// blocks until U has finished it (see ``Resolver/awaitForeignDependencies(holding:)``). So only one of
/// the two threads runs inside the cycle at a time, and both see every instance whole.
enum WaitRegistry {
    static let lock = ShortLock()
    /// Registry field: the threads that depend on each frame that other threads took instances from.
    nonisolated(unsafe) private static var dependents: [FrameReference: [ResolverThread]] = [:]

    // MARK: Waiting for a slot

    /// How a wait that ``beginWait(_:for:of:ownedBy:blocks:)`` was asked for began.
    enum WaitStart {
        /// Recorded: the waiter sleeps until the slot changes.
        case waiting
        /// Recorded, but it closes cycles of waits, each with a blocked synchronous read on it: the
        /// waiters of these slots are to be woken (with no store's lock held), and each such read
        /// takes an instance when it looks again.
        case waitingWhileOthersBreakTheCycle([Waiting])
        /// Not recorded: it would close a cycle of waits. A synchronous read takes an instance to
        /// break it; a task's `await` read, which can't, stops with the chains.
        case closesACycle
    }

    /// Records that `thread` waits for `slot`, owned by `owner` — unless that would close a cycle of
    /// waits. One critical section, so that of two threads that start waiting for each other at
    /// once, the second always sees the first. `blocks`: a synchronous read, which blocks, rather
    /// than a task's `await` read, which suspends.
    ///
    /// The tasks found waiting on the way are pinned (``ResolverThread/isPinned``): a thread that
    /// finds the cycle takes an instance of another thread on it, which is safe only while that
    /// thread stays blocked — so while no task on the cycle leaves its wait when cancelled. A task
    /// whose wait closes only cycles that blocked synchronous reads are on waits too, and wakes
    /// those reads, which break them; on a cycle that none is on, it stops.
    static func beginWait(
        _ thread: ResolverThread,
        for slot: SingletonSlot,
        of store: SingletonStore,
        ownedBy owner: ResolverThread,
        blocks: Bool
    ) -> WaitStart {
        lock.withLock {
            let wait = ResolverThread.Wait.slot(slot, owner: owner, store: store, blocks: blocks)
            if let tasks = tasksPassed(reaching: thread, from: owner) {
                if !blocks && tasksPassed(reaching: thread, from: owner, avoidingBlockedReads: true) == nil {
                    // Every cycle it closes runs through a blocked read, which breaks it.
                    thread.waitingFor = wait
                    return .waitingWhileOthersBreakTheCycle(waitersOnCycles(closedBy: thread).blocking)
                }
                for task in tasks { task.isPinned = true }
                // It doesn't wait (it takes an instance, or stops): no edge of an earlier look stays.
                thread.waitingFor = nil
                return .closesACycle
            }
            makeParker(of: thread)
            thread.waitingFor = wait
            return .waiting
        }
    }

    /// The tasks passed on the way when following waits from `start` leads to `target` — not
    /// through a blocked synchronous read, when `avoidingBlockedReads`; nil when it doesn't lead
    /// there. Registry lock held.
    private static func tasksPassed(
        reaching target: ResolverThread,
        from start: ResolverThread,
        avoidingBlockedReads: Bool = false
    ) -> [ResolverThread]? {
        var tasks: [ResolverThread] = []
        var seen: Set<ObjectIdentifier> = []
        var next = [start]
        while let current = next.popLast() {
            if current === target { return tasks }
            guard seen.insert(ObjectIdentifier(current)).inserted else { continue }
            if current.isTask { tasks.append(current) }
            switch current.waitingFor {
            case .slot(_, _, _, true)? where avoidingBlockedReads: break
            case .slot(_, let owner, _, _)?: next.append(owner)
            case .frames?: next.append(contentsOf: current.foreignDependencies.map(\.thread))
            case nil: break
            }
        }
        return nil
    }

    /// The key of the slot `thread` waits for, if it waits for one: the end of its chain in the
    /// message of a cycle of waits. Takes the registry's lock, so a store's lock may be held.
    static func slotAwaited(by thread: ResolverThread) -> StoredKey? {
        lock.withLock {
            guard case .slot(let slot, _, _, _)? = thread.waitingFor else { return nil }
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

    /// Records that `waiters`, taken from a slot to be woken, no longer wait, and wakes `threads`,
    /// those of them that are threads: a waiter is in the wait-for graph while it is registered on
    /// a slot. Once woken it claims again, and waits again — checking for a cycle then — if it still
    /// must; an edge kept meanwhile could point at a thread the slot no longer waits for, and make a
    /// later wait see a cycle that doesn't exist. (A thread that looks again on its own, for the
    /// warning, keeps its edge until that look records a new one or none.)
    static func woke(_ waiters: [ResolverThread], threads: [ResolverThread]) {
        lock.withLock {
            for thread in waiters { thread.waitingFor = nil }
            for thread in threads { thread.parker?.wake() }
        }
    }

    // MARK: Sleeping

    /// The parker `thread` sleeps on, made the first time it registers a blocking wait: in
    /// ``beginWait(_:for:of:ownedBy:blocks:)``, ``beginAwaitingFrames(of:)``, or by a property
    /// wrapper before it adds the thread to its waiters. So a thread that may be asleep has one, and
    /// waking a thread that has none wakes nobody asleep. (A suspended task needs none.)
    static func parker(of thread: ResolverThread) -> Parker {
        lock.withLock { makeParker(of: thread) }
    }

    /// ``parker(of:)``, with the lock held.
    @discardableResult
    private static func makeParker(of thread: ResolverThread) -> Parker {
        if let parker = thread.parker { return parker }
        let parker = Parker()
        thread.parker = parker
        return parker
    }

    /// Wakes each of `threads` that sleeps, or makes its next sleep return at once.
    static func wake(_ threads: [ResolverThread]) {
        lock.withLock {
            for thread in threads { thread.parker?.wake() }
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
        frame.thread.parker?.wake()
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
                    if case .frames? = thread.waitingFor { toWake += breakers(ofCyclesClosedBy: thread) }
                }
                thread.parker?.wake()
            }
            return toWake
        }
        wakeWaiters(of: toWake)
    }

    /// Records that `thread` waits for the frames of other threads it depends on; false when it
    /// depends on none.
    static func beginAwaitingFrames(of thread: ResolverThread) -> Bool {
        let toWake: [Waiting]? = lock.withLock {
            guard !thread.foreignDependencies.isEmpty else { return nil }
            makeParker(of: thread)
            thread.waitingFor = .frames
            return breakers(ofCyclesClosedBy: thread)
        }
        guard let toWake else { return false }
        wakeWaiters(of: toWake)
        return true
    }

    // MARK: Cycles closed by a thread's new waits

    /// A slot some thread or task waits for, and its store.
    typealias Waiting = (store: SingletonStore, slot: SingletonSlot)

    /// The slots waited for on the cycles of waits that run through `thread`, whose waits have just
    /// changed — those of blocked synchronous reads, and those of suspended tasks. Their waiters
    /// look again when woken, and one of them breaks the cycle (see
    /// ``beginWait(_:for:of:ownedBy:blocks:)``): a cycle is found when the wait that closes it
    /// begins, never by a thread that looks again after a while. Registry lock held.
    private static func waitersOnCycles(
        closedBy thread: ResolverThread
    ) -> (blocking: [Waiting], suspended: [Waiting]) {
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
        var found: (blocking: [Waiting], suspended: [Waiting]) = ([], [])
        for waiter in onCycles {
            guard case .slot(let slot, _, let store, let blocks)? = waiter.waitingFor else { continue }
            if blocks { found.blocking.append((store, slot)) } else { found.suspended.append((store, slot)) }
        }
        return found
    }

    /// The waiters to wake on the cycles that `thread` closes: the blocked synchronous reads, which
    /// take an instance and go on; the suspended tasks, which stop with the chains, only on a cycle
    /// that no synchronous read waits on. Registry lock held.
    private static func breakers(ofCyclesClosedBy thread: ResolverThread) -> [Waiting] {
        let found = waitersOnCycles(closedBy: thread)
        return found.blocking.isEmpty ? found.suspended : found.blocking
    }

    /// The threads and tasks `thread` waits for. Registry lock held.
    private static func waitedFor(by thread: ResolverThread) -> [ResolverThread] {
        switch thread.waitingFor {
        case .slot(_, let owner, _, _)?: [owner]
        case .frames?: thread.foreignDependencies.map(\.thread)
        case nil: []
        }
    }

    /// Wakes the waiters of each slot, so that they look for a cycle of waits again. Called with no
    /// lock held: waking takes each store's lock.
    static func wakeWaiters(of waiting: [Waiting]) {
        for (store, slot) in waiting {
            store.wakeWaiters(of: slot)
        }
    }

    /// Blocks until `thread` depends on no frame of another thread, in the one wait loop
    /// (``ResolverThread/wait(until:)``), which prints `warning()` once if it lasts.
    ///
    /// While it waits, what it waits for may change hands (`finished` retargets it to the next frame)
    /// and other threads may take its own instances; each time, `changed` runs — outside the lock —
    /// with the frame it now waits for first, so that the thread can say so in the slots it holds
    /// and mark the frames taken from it. When `changed` returns true, the thread stops waiting
    /// though it still depends on frames of other threads.
    static func awaitFrames(
        of thread: ResolverThread,
        changed: (FrameReference?) -> Bool,
        warning: @escaping () -> String
    ) {
        var first = firstForeignDependency(of: thread)
        thread.wait { () -> ResolverThread.WaitStep<Void> in
            while true {
                switch lookAtFrames(of: thread, first: &first) {
                case .settled:
                    return .done(())
                case .changed(let now):
                    guard changed(now) else { continue }
                    endWait(thread)
                    return .done(())
                case .waiting:
                    return .waiting(warning: warning)
                }
            }
        }
    }

    /// What one look at the frames a thread waits for found.
    enum FramesLook {
        /// It depends on no frame of another thread: it no longer waits.
        case settled
        /// What it waits for first is now `first`, or a frame was taken from it: it says so in the
        /// slots it holds, marks the frames taken from it, and looks again.
        case changed(first: FrameReference?)
        /// Nothing changed since the last look: it sleeps until ``recordDependency(of:on:)`` or
        /// ``finished(_:next:)`` wakes it.
        case waiting
    }

    /// One look of ``awaitFrames(of:changed:warning:)``: `first` is the frame `thread` waited for
    /// first at the last look. Doesn't block.
    static func lookAtFrames(of thread: ResolverThread, first: inout FrameReference?) -> FramesLook {
        lock.withLock {
            if thread.foreignDependencies.isEmpty {
                thread.waitingFor = nil
                return .settled
            }
            let now = thread.foreignDependencies.first
            guard now != first || !thread.inbox.isEmpty else { return .waiting }
            first = now
            return .changed(first: now)
        }
    }

    /// The first frame of another thread that `thread` depends on.
    static func firstForeignDependency(of thread: ResolverThread) -> FrameReference? {
        lock.withLock { thread.foreignDependencies.first }
    }
}
