// Definitions whose bodies `await`: see <doc:DefiningObjectsThatAreBuiltAsynchronously>.

extension Assembly {
    /// Defines how the object an `async` member returns is built and wired, when building it needs
    /// `await`.
    ///
    /// ```swift
    /// var database: Database {
    ///     get async throws {
    ///         try await define(scope: .singleton) { try await Database.connect(to: self.settings.url) }
    ///     }
    /// }
    /// ```
    ///
    /// The top-level `await` read owns one object graph for its whole duration, across every
    /// suspension point: object-graph instances are shared in it, cycles through `*~>` close in it,
    /// and hooks and `afterAllInjections` steps run when it completes. Synchronous members read in
    /// the body join the same graph. A singleton is built once per family: other tasks that read it
    /// meanwhile suspend until it is published, and threads never wait for a body that awaits. See
    /// <doc:DefiningObjectsThatAreBuiltAsynchronously>.
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - isolation: The actor the body runs on; the caller's by default. Leave the default.
    ///   - body: Builds, registers and wires the instance, and returns it; it may `await`.
    /// - Returns: The instance for this read.
    /// - Throws: What `body` throws; a `CancellationError` when the body's error type admits one and
    ///   the task is cancelled while it waits for another task to build the singleton — unless a
    ///   cycle relies on it waiting on (see <doc:DefiningObjectsThatAreBuiltAsynchronously>).
    @inlinable
    public final func define<T, E: Error>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        let definitionKey = self.key(
            T.self,
            explicitKey: key,
            function: function,
            file: file,
            line: line,
            argument: nil
        )
        // A singleton this thread has read before is handed back here, inlined into the getter:
        // nothing awaits, so no frame of the engine is allocated.
        if case .singleton = scope.kind, let object = Resolver.cachedSingleton(definitionKey, in: family) {
            return unboxSingleton(object, as: T.self)
        }
        return try await AsyncReading.read(definitionKey, scope: scope, in: family, isolation: isolation, body)
    }

    /// Defines how the object an `async` member returns is built, when it needs `await` and no
    /// registration.
    ///
    /// ```swift
    /// var configuration: RemoteConfiguration {
    ///     get async throws {
    ///         try await define(scope: .singleton) { try await RemoteConfiguration.fetch(from: self.api) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - isolation: The actor the body runs on; the caller's by default. Leave the default.
    ///   - body: Builds and wires the instance, and returns it; it may `await`.
    /// - Returns: The instance for this read.
    /// - Throws: What `body` throws; a `CancellationError` when the body's error type admits one and
    ///   the task is cancelled while it waits for another task to build the singleton — unless a
    ///   cycle relies on it waiting on (see <doc:DefiningObjectsThatAreBuiltAsynchronously>).
    @inlinable
    public final func define<T, E: Error>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        let definitionKey = self.key(
            T.self,
            explicitKey: key,
            function: function,
            file: file,
            line: line,
            argument: nil
        )
        if case .singleton = scope.kind, let object = Resolver.cachedSingleton(definitionKey, in: family) {
            return unboxSingleton(object, as: T.self)
        }
        return try await AsyncReading.read(definitionKey, scope: scope, in: family, isolation: isolation, body)
    }

    /// Defines how the object an `async` method with parameters returns is built, with the argument
    /// values as part of its key.
    ///
    /// ```swift
    /// func account(id: Account.ID) async throws -> Account {
    ///     try await define(arguments: id) { definition in
    ///         let account = definition *~> Account(id: id)
    ///         account.profile = try await self.profile(of: id)
    ///         return account
    ///     }
    /// }
    /// ```
    ///
    /// Arguments work as in the synchronous `define(arguments:)`: see <doc:Arguments>.
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - arguments: The method's parameters, as part of the key.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - isolation: The actor the body runs on; the caller's by default. Leave the default.
    ///   - body: Builds, registers and wires the instance, and returns it; it may `await`.
    /// - Returns: The instance for this read and these arguments.
    /// - Throws: What `body` throws; a `CancellationError` when the body's error type admits one and
    ///   the task is cancelled while it waits for another task to build the singleton — unless a
    ///   cycle relies on it waiting on (see <doc:DefiningObjectsThatAreBuiltAsynchronously>).
    @inlinable
    public final func define<T, E: Error, each Argument: Hashable>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        arguments: repeat each Argument,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Definition<T>) async throws(E) -> T
    ) async throws(E) -> T {
        let arguments = ArgumentList.of(repeat each arguments)
        // The key doesn't retain its arguments: this call keeps them while the read runs.
        let definitionKey = DefinitionKey(
            assembly: type(of: self),
            member: function,
            type: T.self,
            explicitKey: key,
            file: file,
            line: line,
            argumentBits: arguments.bits,
            arguments: arguments
        )
        defer { withExtendedLifetime(arguments) {} }
        return try await AsyncReading.read(definitionKey, scope: scope, in: family, isolation: isolation, body)
    }

    /// Defines how the object an `async` method with parameters returns is built, with the argument
    /// values as part of its key, when it needs no registration.
    ///
    /// ```swift
    /// func thumbnail(of photo: Photo.ID) async throws -> Thumbnail {
    ///     try await define(scope: .singleton, arguments: photo) { try await Thumbnail.render(photo) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: An explicit key shared by the whole family; by default the definition site.
    ///   - scope: How long the instance lives and who shares it; ``Scope/objectGraph`` by default.
    ///   - arguments: The method's parameters, as part of the key.
    ///   - function: The member that defines the object. Leave the default.
    ///   - file: The file of the definition, part of its key. Leave the default.
    ///   - line: The line of the definition, part of its key. Leave the default.
    ///   - isolation: The actor the body runs on; the caller's by default. Leave the default.
    ///   - body: Builds and wires the instance, and returns it; it may `await`.
    /// - Returns: The instance for this read and these arguments.
    /// - Throws: What `body` throws; a `CancellationError` when the body's error type admits one and
    ///   the task is cancelled while it waits for another task to build the singleton — unless a
    ///   cycle relies on it waiting on (see <doc:DefiningObjectsThatAreBuiltAsynchronously>).
    @inlinable
    public final func define<T, E: Error, each Argument: Hashable>(
        withKey key: StaticString? = nil,
        scope: Scope = .objectGraph,
        arguments: repeat each Argument,
        function: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        try await define(
            withKey: key,
            scope: scope,
            arguments: repeat each arguments,
            function: function,
            file: file,
            line: line,
            isolation: isolation
        ) { (_: Definition<T>) async throws(E) in try await body() }
    }
}
