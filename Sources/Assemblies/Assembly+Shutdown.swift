// Shutting a family down.

extension Assembly {
    /// Shuts this assembly's family down: releases what its singletons and the instances of its
    /// resettable scopes own, through the shutdowns their definitions declared with
    /// ``Definition/onShutdown(_:)``.
    ///
    /// ```swift
    /// var database: Database {
    ///     define(scope: .singleton) { definition in
    ///         definition.onShutdown { database in try await database.close() }
    ///         return Database(url: self.configuration(Settings.self).databaseURL)
    ///     }
    /// }
    ///
    /// try await app.shutDown()   // closes the database
    /// ```
    ///
    /// In order:
    /// 1. Reads that would start a new graph of the family stop with a message that says the family
    ///    is shutting down — except those the shutdowns make (a shutdown may log through the family's
    ///    logger); reads already running go on.
    /// 2. Once no singleton (or instance of a resettable scope) is being built, each instance that
    ///    declared a shutdown is shut down, the last built first — so an instance shuts down before
    ///    the instances it was built from — each once, one at a time. Those that reads still running
    ///    build meanwhile are shut down next.
    /// 3. What the shutdowns threw is thrown together, once every instance has been shut down.
    ///
    /// A second call, while the first runs, waits for it; once the family is shut down, a call returns
    /// at once — neither throws: the first call reports what the shutdowns threw. A call inside a read
    /// of the family (from a definition body) stops with a message, since the shutdown would wait for
    /// that read's instance; one from a task that such a read waits for — a child task of an async
    /// body — can't finish, and prints which instance it waits for after
    /// ``singletonWaitWarningDelay``: shut the family down from outside its reads. Any assembly of
    /// the family shuts the whole family down. Once shut down, the family keeps none of its
    /// instances — not even a singleton that held the root: those nothing else holds go then, and a
    /// `deinit` can't read the family any more. For a server, shut the family down after whatever
    /// serves requests has stopped: see <doc:Recipes#Shutting-a-server-down>.
    ///
    /// - Throws: ``ShutdownError``, listing every shutdown that threw.
    public final func shutDown() async throws(ShutdownError) {
        try await family.shutDown()
    }

    /// Resets `scope` as ``reset(_:)`` does, then shuts down the instances it dropped that declared a
    /// shutdown (``Definition/onShutdown(_:)``), at once: the way to end a session whose instances own
    /// resources.
    ///
    /// ```swift
    /// try await app.shutDown(.session)   // the user logged out: close the session's connection now
    /// ```
    ///
    /// ``reset(_:)`` leaves those shutdowns to the family's ``shutDown()``, and keeps their instances
    /// until then. Here each one runs once, the last built first, one at a time, after the dropped
    /// instances' ``Disposable/dispose()``; what they throw is thrown together once all have run. An
    /// instance of the scope still being built when this is called is dropped once finished, and
    /// shut down with the family.
    ///
    /// - Parameter scope: A resettable scope (see ``Scope/resettable(_:)``).
    /// - Throws: ``ShutdownError``, listing every shutdown that threw.
    public final func shutDown(_ scope: Scope) async throws(ShutdownError) {
        let (dropped, store) = dropInstances(of: scope)
        let failures = await store.shutDown(dropped)
        if !failures.isEmpty { throw ShutdownError(failures: failures) }
    }
}
