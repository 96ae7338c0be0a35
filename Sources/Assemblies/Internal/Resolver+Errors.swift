// What happens when a definition's body throws: the frame it was building is undone, so that
// nothing it built half stays in the graph or is published, and the error goes on to the reader.

extension Resolver {
    /// Undoes the frame at `index`, whose body threw; the frames above it were undone already, by
    /// the reads the error passed through.
    ///
    /// The frame's instance, if it registered one, is dropped; so are the hooks its body added, which
    /// never run. An object-graph definition's entry is forgotten, so that a later read in the graph
    /// — by a body that caught the error — builds it again; a stored definition's slot is given up,
    /// so that the next read, on any thread, builds it again. An instance registered with `*~>` and
    /// already handed out to a reader that closes a cycle can't be taken back: that stops the
    /// program (see ``Failure/threwAfterHandingOut(_:takenBy:through:)``); an instance of a frame below
    /// that this body took is no reason to stop — only this read is undone.
    func undo(_ index: Int) {
        // Instances other threads took from this one while it waited count as handed out.
        if thread.mayHaveForeignDependencies { takeInbox() }
        let frame = frames.address(index)
        let serial = frame.pointee.serial
        if frame.pointee.flags.contains(.handedOut) {
            // Its own instance was taken: what took it keeps an object that will never be finished.
            // (An instance of a frame below, handed out to this one, is another matter: this read is
            // undone, and the frame below goes on.)
            let isLonger = frame.pointee.flags.contains(.handedOutInALongerCycle)
            Failure.threwAfterHandingOut(
                Array(threadChain(to: key(ofFrame: index)).dropLast()),
                takenBy: handouts.takers[index],
                through: isLonger ? handouts.takerPaths[index] ?? [] : []
            )
        }
        if frame.pointee.flags.contains(.hasHooks) {
            hooks.waiting.removeAll { $0.serial == serial }
        }
        var abandoned: SlotBuild?
        if frame.pointee.entry >= 0 {
            entries.forget(Int(frame.pointee.entry))
        } else if frame.pointee.scope != .prototype, let last = building.last, last.serial == serial {
            abandoned = building.removeLast()
        }
        frames.count = index
        // Released last: a registered instance's deinit may read the family again.
        let registered = frame.pointee.object
        if let abandoned { abandoned.store.abandon(abandoned.slot) }
        registered?.release()
    }

    /// Ends a graph whose top-level read threw: the `afterAllInjections` steps of its instances don't
    /// run, and the singletons that waited for them are given up rather than published, since they
    /// are not finished. When another thread took one of those to break a cycle of waits, it can't
    /// be taken back: that stops the program (see
    /// ``Failure/abandonedAfterHeldInstanceWasTaken(_:takenThrough:)``).
    @inline(never)
    func abandonGraph() {
        hooks.steps.removeAll()
        takeInbox()
        if handouts.ofHeldInstances {
            for item in held.untilSteps {
                // Another thread took it to break a cycle of waits: it keeps an object whose steps
                // never run.
                if let taker = item.store.takenBy(item.slot) {
                    Failure.abandonedAfterHeldInstanceWasTaken(item.slot.key, takenThrough: taker.definitions)
                }
            }
        }
        let unfinished = held.untilSteps
        held.untilSteps.removeAll()
        stepsFinished(abandoned: true)
        for item in unfinished {
            item.store.abandon(item.slot)
        }
        closeGraph()
    }
}
