/// What a family reports its reads to: the observer given by
/// ``Assembly/observeResolutions(with:)``, and the recordings in progress (``Recording``).
///
/// Immutable: the family swaps in a new one under its lock, and a graph keeps the one it opened
/// with. While a family has one, its ``Family/interceptCount`` counts it, so its reads leave the
/// quick paths for ``Resolver/decideIntercepted(_:scope:in:isInGraph:suspends:)``; without one they pay nothing.
@usableFromInline
final class Observation: Sendable {
    /// The observer, if any: a box, so that asking whether there is one, and calling it, copies no
    /// existential (two of them cost the observed graph of 10 a tenth of its instructions).
    let observer: ObserverBox?
    let recordings: [Recording]

    init(observer: (any ResolutionObserver)?, recordings: [Recording]) {
        self.observer = observer.map(ObserverBox.init)
        self.recordings = recordings
    }

    /// Whether a read on `thread` is reported to anything.
    @inline(__always)
    func reports(on thread: ResolverThread) -> Bool {
        observer != nil || recordsReads(on: thread)
    }

    /// Whether a recording takes the reads made on `thread`.
    @inline(never)
    private func recordsReads(on thread: ResolverThread) -> Bool {
        recordings.contains { $0.records(on: thread) }
    }

    /// Hands `resolution`, made on `thread`, to the observer and to that thread's recordings (only
    /// they need `thread`: an observer alone costs no look at it).
    func deliver(_ resolution: Resolution, on thread: @autoclosure () -> ResolverThread) {
        observer?.deliver(resolution)
        if !recordings.isEmpty {
            deliverToRecordings(resolution, on: thread())
        }
    }

    /// Hands `resolution` to the recordings of `thread`'s reads.
    @inline(never)
    private func deliverToRecordings(_ resolution: Resolution, on thread: ResolverThread) {
        for recording in recordings where recording.records(on: thread) {
            recording.append(resolution)
        }
    }
}

/// An observer, kept by reference.
final class ObserverBox: Sendable {
    let observer: any ResolutionObserver

    init(_ observer: any ResolutionObserver) {
        self.observer = observer
    }

    /// Calls the observer in place: `observer` is borrowed from the box, not copied out of it.
    func deliver(_ resolution: Resolution) {
        observer.didResolve(resolution)
    }
}

/// The reads of one family made on one thread, or by one task, while a block runs, for
/// ``Assembly/recordGraph(of:)`` and ``Assembly/buildReport(of:)`` and their async variants.
final class Recording: Sendable {
    private let thread: ResolverThread?
    private let task: RecordedTask?
    private let collected = Locked<[Resolution]>([])

    /// Records the reads made on `thread`.
    init(thread: ResolverThread) {
        self.thread = thread
        task = nil
    }

    /// Records the reads `task` makes: in its async graphs, and those it makes synchronously outside
    /// them, on whichever threads it runs.
    init(task: TaskIdentity) {
        thread = nil
        self.task = RecordedTask(task)
    }

    /// Whether a read made on `thread` (a thread's, or a task's, see ``ResolverThread/task``) is
    /// recorded.
    @inline(__always)
    func records(on thread: ResolverThread) -> Bool {
        if let own = self.thread { return own === thread }
        return task!.made(on: thread)
    }

    func append(_ resolution: Resolution) {
        collected.withLock { $0.append(resolution) }
    }

    /// What was recorded, in the order the reads returned.
    var resolutions: [Resolution] { collected.withLock { $0 } }
}

extension Family {
    /// Replaces the family's observer, or adds or removes a recording; counts the family as
    /// intercepted while it has either.
    func changeObservation(
        observer: (any ResolutionObserver)?? = nil,
        adding added: Recording? = nil,
        removing removed: Recording? = nil
    ) {
        let replaced: Observation? = withObservation { current in
            var recordings = current?.recordings ?? []
            if let added { recordings.append(added) }
            if let removed { recordings.removeAll { $0 === removed } }
            let newObserver = observer ?? current?.observer?.observer
            let next =
                newObserver == nil && recordings.isEmpty
                ? nil : Observation(observer: newObserver, recordings: recordings)
            if (current == nil) != (next == nil) {
                if next == nil {
                    observedCount.decrement()
                    everyReaderCount.decrement()
                    interceptCount.decrement()
                } else {
                    interceptCount.increment()
                    everyReaderCount.increment()
                    observedCount.increment()
                }
            }
            defer { current = next }
            return current
        }
        // Released outside the lock: an observer's deinit is user code.
        _ = replaced
    }

    /// Records the reads of this family made on this thread while `body` runs.
    func recording<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> (Result, [Resolution]) {
        let recording = Recording(thread: Resolver.withCurrent { $0.thread })
        changeObservation(adding: recording)
        defer { changeObservation(removing: recording) }
        let result = try body()
        return (result, recording.resolutions)
    }

    /// Records the reads of this family that the current task makes while `body` runs.
    func recording<Result, E: Error>(
        isolation: isolated (any Actor)?,
        _ body: () async throws(E) -> Result
    ) async throws(E) -> (Result, [Resolution]) {
        guard let task = TaskIdentity.current else {
            preconditionFailure("Assemblies: an async recording outside a task")
        }
        let recording = Recording(task: task)
        changeObservation(adding: recording)
        defer { changeObservation(removing: recording) }
        let result = try await body()
        return (result, recording.resolutions)
    }
}

/// The task of a ``Recording``, kept apart so that a recording of a thread compares one pointer.
private final class RecordedTask: Sendable {
    /// Compared only while the recording is registered, which is while the task runs the recorded
    /// block: no other task can have its address meanwhile.
    private let task: TaskIdentity

    init(_ task: TaskIdentity) {
        self.task = task
    }

    /// Whether a read made on `thread` is this task's: on one of its async graphs, or on a thread
    /// while this task runs there.
    @inline(never)
    func made(on thread: ResolverThread) -> Bool {
        if let reader = thread.task { return reader == task }
        return TaskIdentity.current == task
    }
}
