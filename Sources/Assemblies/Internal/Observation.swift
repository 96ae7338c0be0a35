/// What a family reports its reads to: the observer given by
/// ``Assembly/observeResolutions(with:)``, and the recordings in progress (``Recording``).
///
/// Immutable: the family swaps in a new one under its lock, and a graph keeps the one it opened
/// with. While a family has one, its ``Family/interceptCount`` counts it, so its reads leave the
/// fast paths for ``Resolver/resolveIntercepted(_:scope:in:_:)``; without one they pay nothing.
@usableFromInline
final class Observation: Sendable {
    let observer: (any ResolutionObserver)?
    let recordings: [Recording]

    init(observer: (any ResolutionObserver)?, recordings: [Recording]) {
        self.observer = observer
        self.recordings = recordings
    }

    /// Whether a read on `thread` is reported to anything.
    func reports(on thread: ResolverThread) -> Bool {
        observer != nil || recordings.contains { $0.thread === thread }
    }

    /// Hands `resolution`, made on `thread`, to the observer and to that thread's recordings.
    func deliver(_ resolution: Resolution, on thread: ResolverThread) {
        observer?.didResolve(resolution)
        for recording in recordings where recording.thread === thread {
            recording.append(resolution)
        }
    }
}

/// The reads of one family made on one thread while a block runs, for ``Assembly/recordGraph(of:)``
/// and ``Assembly/buildReport(of:)``.
final class Recording: Sendable {
    let thread: ResolverThread
    private let collected = Locked<[Resolution]>([])

    init(thread: ResolverThread) {
        self.thread = thread
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
        let replaced: Observation? = observationState.withLock { current in
            var recordings = current?.recordings ?? []
            if let added { recordings.append(added) }
            if let removed { recordings.removeAll { $0 === removed } }
            let newObserver = observer ?? current?.observer
            let next =
                newObserver == nil && recordings.isEmpty
                ? nil : Observation(observer: newObserver, recordings: recordings)
            if (current == nil) != (next == nil) {
                if next == nil { interceptCount.decrement() } else { interceptCount.increment() }
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
}
