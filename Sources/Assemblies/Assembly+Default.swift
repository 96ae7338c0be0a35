// The default family, which the property wrappers resolve from.

extension Assembly {
    // MARK: The default family

    /// Makes this assembly's family the one that ``Injected``, ``InjectedIfAvailable`` and
    /// ``WeaklyInjected`` properties resolve from, for the whole program.
    ///
    /// ```swift
    /// @main struct Forecast {
    ///     static func main() {
    ///         ApplicationAssembly().makeDefault()
    ///         ...
    ///     }
    /// }
    /// ```
    ///
    /// The program keeps this assembly (and so its family) until another is made the default or
    /// ``removeDefault()`` is called. A default made for a task with ``makeDefault(during:)``
    /// takes precedence in that task.
    public final func makeDefault() {
        let previous = DefaultAssembly.process.withLock { current in
            defer { current = self }
            return current
        }
        _ = previous  // released outside the lock: its deinit may run user code
    }

    /// Stops the program-wide default family (see ``makeDefault()``) from being the default.
    public static func removeDefault() {
        let previous = DefaultAssembly.process.withLock { current in
            defer { current = nil }
            return current
        }
        _ = previous
    }

    /// Runs `body` with this assembly's family as the default for the current task and its child
    /// tasks: the way tests that run in parallel each give property wrappers their own family.
    ///
    /// ```swift
    /// @Test func greetsTheUser() {
    ///     ApplicationAssembly().makeDefault {
    ///         #expect(GreetingController().title == "Hello")   // its @Injected properties read this family
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter body: The code whose property wrappers resolve from this family.
    /// - Returns: What `body` returns.
    public final func makeDefault<Result>(during body: () throws -> Result) rethrows -> Result {
        try DefaultAssembly.$task.withValue(self) { try body() }
    }

    /// Runs `body` with this assembly's family as the default for the current task and its child tasks.
    ///
    /// - Parameters:
    ///   - isolation: The actor `body` runs on; the caller's by default.
    ///   - body: The code whose property wrappers resolve from this family.
    /// - Returns: What `body` returns.
    public final func makeDefault<Result>(
        isolation: isolated (any Actor)? = #isolation,
        during body: () async throws -> Result
    ) async rethrows -> Result {
        try await DefaultAssembly.$task.withValue(self, operation: body, isolation: isolation)
    }
}

/// Where the default family is kept: per task, else for the program.
enum DefaultAssembly {
    @TaskLocal static var task: Assembly?
    static let process = Locked<Assembly?>(nil)

    /// What `keyPath` reads from `assembly`, in a top-level read of its own: a property wrapper read
    /// inside a definition body doesn't join the body's graph.
    static func read<Root: Assembly, Value>(_ keyPath: KeyPath<Root, Value>, from assembly: Root) -> Value {
        Resolver.withCurrent { resolver in resolver.inGraphOfItsOwn { assembly[keyPath: keyPath] } }
    }

    /// The default family's assembly of type `Root`, or nil when there is no default family.
    static func assembly<Root: Assembly>(_: Root.Type) -> Root? {
        guard let root = task ?? process.withLock({ $0 }) else { return nil }
        return root as? Root ?? root.family.assembly(of: Root.self)
    }

    /// What `keyPath` reads from the default family; stops when there is none, naming `wrapper`.
    static func value<Root: Assembly, Value>(at keyPath: KeyPath<Root, Value>, for wrapper: String) -> Value {
        guard let assembly = assembly(Root.self) else {
            Failure.noDefaultFamily(Root.self, Value.self, wrapper: wrapper)
        }
        return read(keyPath, from: assembly)
    }
}
