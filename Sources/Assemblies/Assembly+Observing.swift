// Seeing what a family built: its reads as they happen, the graph of a block of code, and how long
// each body took.

extension Assembly {
    /// Reports every read of this family's definitions, on every thread, to `observer`, until
    /// ``stopObservingResolutions()``; replaces the observer given before, if any.
    ///
    /// ```swift
    /// let app = AppAssembly()
    /// app.observeResolutions(with: ResolutionLog())   // one line per read, to standard error
    /// ```
    ///
    /// A family with no observer (and no recording in progress) pays nothing for this on its read
    /// paths: a read checks the one word that overrides already need. While one is set, every read
    /// of the family leaves the fast paths and is timed. A graph keeps reporting to the observer it
    /// opened with until its top-level read returns — except, once the family has no observer,
    /// recording or override left, reads of singletons its thread has cached.
    public final func observeResolutions(with observer: some ResolutionObserver) {
        family.changeObservation(observer: .some(observer))
    }

    /// Stops reporting this family's reads to the observer given to
    /// ``observeResolutions(with:)``.
    public final func stopObservingResolutions() {
        family.changeObservation(observer: .some(nil))
    }

    /// Runs `body` and returns the graph of what this family's reads made on this thread while it
    /// ran: one top-level read, everything ``activate()`` builds, or any block of code.
    ///
    /// ```swift
    /// let graph = app.recordGraph { _ = app.cafe }
    /// print(graph.mermaid)
    /// ```
    ///
    /// Reads made on other threads, and reads of a graph that was already open when `body` started
    /// (call it outside definition bodies), are not recorded.
    public final func recordGraph<E: Error>(of body: () throws(E) -> Void) throws(E) -> RecordedGraph {
        RecordedGraph(try family.recording(body).1)
    }

    /// Runs `body` and returns what this family's reads built on this thread while it ran, each with
    /// the time its body took: the table to look at to cut start-up time.
    ///
    /// ```swift
    /// let report = app.buildReport { app.activate() }
    /// print(report)   // the slowest bodies first
    /// ```
    public final func buildReport<E: Error>(of body: () throws(E) -> Void) throws(E) -> BuildReport {
        BuildReport(try family.recording(body).1)
    }

    /// Runs `body`, which may await, and returns the graph of what this family's reads made in this
    /// task while it ran: one top-level `await` read, everything `await` ``activate(isolation:)``
    /// builds, or any block of code.
    ///
    /// ```swift
    /// let graph = await app.recordGraph { _ = try? await app.database }
    /// print(graph.mermaid)
    /// ```
    ///
    /// The reads the task makes are recorded — in its async graphs and synchronously, on whichever
    /// threads it runs. Reads made by other tasks, child tasks included, and reads of a graph that
    /// was already open when `body` started, are not.
    ///
    /// - Parameters:
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - body: The code whose reads to record.
    public final func recordGraph<E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        of body: () async throws(E) -> Void
    ) async throws(E) -> RecordedGraph {
        RecordedGraph(try await family.recording(isolation: isolation, body).1)
    }

    /// Runs `body`, which may await, and returns what this family's reads built in this task while
    /// it ran, each with the time its body took, suspensions included (see
    /// ``recordGraph(isolation:of:)`` for which reads count).
    ///
    /// ```swift
    /// let report = try await app.buildReport { try await app.activate() }
    /// print(report)   // the slowest bodies first
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - body: The code whose builds to report.
    public final func buildReport<E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        of body: () async throws(E) -> Void
    ) async throws(E) -> BuildReport {
        BuildReport(try await family.recording(isolation: isolation, body).1)
    }
}
