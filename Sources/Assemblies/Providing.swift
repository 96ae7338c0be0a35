/// What gives every assembly its `provider(_:)` methods: functions that a long-lived object keeps
/// to read a definition again each time it needs a new instance.
///
/// Every ``Assembly`` conforms; you never conform a type yourself. (A protocol, so that the key
/// paths and closures the methods take are typed by the assembly you call them on.)
///
/// A singleton that needs a new object graph for each request, job or screen keeps a provider
/// rather than an assembly or a closure that captures one:
///
/// ```swift
/// final class NotesAssembly: Assembly, @unchecked Sendable {
///     var controller: NotesController {
///         define(scope: .singleton) {
///             NotesController(makeHandler: self.provider(\.handler, carrying: Request.self))
///         }
///     }
///
///     var request: Request { define { self.graphArgument(Request.self) } }
///     var handler: NoteHandler { define { NoteHandler(request: self.request, store: self.store) } }
/// }
///
/// final class NotesController: Sendable {
///     let makeHandler: @Sendable (Request) -> NoteHandler
///     ...
/// }
/// ```
///
/// A provider holds its family weakly: it keeps neither the assembly it was made from nor its
/// family's singletons alive, so a singleton that holds one doesn't keep the singletons of its own
/// family alive after the root is released. Called after the root is released, or once the family
/// began to shut down, it stops with a message that names the root. A provider without `carrying:`
/// reads the member as if it were read where the provider is called — outside any resolution, in a
/// new object graph — and one with `carrying:` always in a graph of its own; both read in the
/// calling task, so ``Overrides`` that the task applies replace what they read.
public protocol Providing: AnyObject {}

extension Assembly: Providing {}

extension Providing where Self: Assembly {
    /// A function that reads `keyPath` of this assembly's family each time it is called.
    ///
    /// ```swift
    /// var scheduler: Scheduler {
    ///     define(scope: .singleton) { Scheduler(makeJob: self.provider(\.job)) }
    /// }
    /// ```
    ///
    /// The function holds the family weakly (see ``Providing``): call it while the family's root is
    /// alive. Each call is a read of `keyPath` where the function is called: a new object graph for
    /// an object-graph or prototype member read outside any resolution, the family's instance for a
    /// singleton.
    ///
    /// - Parameters:
    ///   - keyPath: The member to read.
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    /// - Returns: A function that reads `keyPath` in this assembly's family.
    public func provider<Value>(
        _ keyPath: KeyPath<Self, Value> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> @Sendable () -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { family.assembly(of: Self.self)[keyPath: keyPath] }
    }

    /// A function that reads `keyPath` in a graph of its own each time it is called, a graph that
    /// carries the value the call passes: definitions of the graph read it with
    /// ``Assembly/graphArgument(_:)``.
    ///
    /// ```swift
    /// var request: Request { define { self.graphArgument(Request.self) } }
    /// var handler: NotesHandler { define { NotesHandler(request: self.request, store: self.store) } }
    ///
    /// let makeHandler = self.provider(\.handler, carrying: Request.self)
    /// let handler = makeHandler(request)
    /// ```
    ///
    /// The definitions of one request are then plain properties, which tests replace by key path:
    /// no method takes the request as an argument. Each call opens a graph of its own, even inside a
    /// read of another graph, and the graph keeps the value until it closes. The function holds the
    /// family weakly (see ``Providing``): call it while the family's root is alive.
    ///
    /// - Parameters:
    ///   - keyPath: The member to read.
    ///   - type: The type of the value each call carries into its graph; carry a struct for more.
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    /// - Returns: A function that reads `keyPath` in a new graph carrying its argument.
    public func provider<Carried, Value>(
        _ keyPath: KeyPath<Self, Value> & Sendable,
        carrying type: Carried.Type,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> @Sendable (Carried) -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (value: Carried) -> Value in
            let assembly = family.assembly(of: Self.self)
            return Resolver.withCurrent { resolver in
                resolver.inGraphOfItsOwn(of: assembly.family, carrying: GraphArguments(value)) {
                    assembly[keyPath: keyPath]
                }
            }
        }
    }

    /// A function that reads what the async `read` reads in a graph of its own each time it is
    /// called, a graph that carries the value the call passes (see
    /// ``provider(_:carrying:file:line:)``): for members declared `get async`.
    ///
    /// ```swift
    /// let makeSession = self.provider(carrying: Request.self) { assembly in await assembly.session }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the value each call carries into its graph.
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    ///   - read: Reads a member of the assembly it is given.
    /// - Returns: A function that calls `read` in a new graph carrying its argument.
    public func provider<Carried, Value>(
        carrying type: Carried.Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ read: @escaping @Sendable (Self) async -> Value
    ) -> @Sendable (Carried) async -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (value: Carried) async -> Value in
            let assembly = family.assembly(of: Self.self)
            return await AsyncGraph.inGraphOfItsOwn(
                of: assembly.family,
                carrying: GraphArguments(value),
                isolation: nil
            ) {
                await read(assembly)
            }
        }
    }

    /// A function that reads what the async, throwing `read` reads in a graph of its own each time it
    /// is called, a graph that carries the value the call passes, and throws what `read` throws.
    ///
    /// ```swift
    /// let makeHandler = self.provider(carrying: Request.self) { (assembly) async throws(NotesError) in
    ///     try await assembly.handler
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type of the value each call carries into its graph.
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    ///   - read: Reads a member of the assembly it is given.
    /// - Returns: A function that calls `read` in a new graph carrying its argument.
    public func provider<Carried, Value, Failure: Error>(
        carrying type: Carried.Type,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ read: @escaping @Sendable (Self) async throws(Failure) -> Value
    ) -> @Sendable (Carried) async throws(Failure) -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (value: Carried) async throws(Failure) -> Value in
            let assembly = family.assembly(of: Self.self)
            return try await AsyncGraph.inGraphOfItsOwn(
                of: assembly.family,
                carrying: GraphArguments(value),
                isolation: nil
            ) { () async throws(Failure) -> Value in
                try await read(assembly)
            }
        }
    }

    /// A function that reads, each time it is called, what `read` reads from this assembly's family
    /// with the arguments the call passes: the way to keep a method with parameters.
    ///
    /// ```swift
    /// let makeHandler = self.provider { assembly, request in assembly.handler(for: request) }
    /// let handler = makeHandler(request)
    /// ```
    ///
    /// `read` gets this family's instance of the assembly at each call; read through it, not through
    /// `self`, which the closure would keep alive. The function holds the family weakly (see
    /// ``Providing``): call it while the family's root is alive.
    ///
    /// - Parameters:
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    ///   - read: Reads a member of the assembly it is given, with the call's arguments.
    /// - Returns: A function that calls `read` with this family's instance of the assembly.
    public func provider<each Argument, Value>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ read: @escaping @Sendable (Self, repeat each Argument) -> Value
    ) -> @Sendable (repeat each Argument) -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (arguments: repeat each Argument) -> Value in
            read(family.assembly(of: Self.self), repeat each arguments)
        }
    }

    /// A function that reads what the throwing `read` reads from this assembly's family each time it
    /// is called, and throws what `read` throws.
    ///
    /// ```swift
    /// let makeStatement = self.provider { (assembly, id: Int) throws(StatementError) in
    ///     try assembly.statement(for: id)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    ///   - read: Reads a member of the assembly it is given, with the call's arguments.
    /// - Returns: A function that calls `read` with this family's instance of the assembly.
    public func provider<each Argument, Value, Failure: Error>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ read: @escaping @Sendable (Self, repeat each Argument) throws(Failure) -> Value
    ) -> @Sendable (repeat each Argument) throws(Failure) -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (arguments: repeat each Argument) throws(Failure) -> Value in
            try read(family.assembly(of: Self.self), repeat each arguments)
        }
    }

    /// A function that reads what the async `read` reads from this assembly's family each time it is
    /// called: for members declared `get async`, and `async` methods.
    ///
    /// ```swift
    /// let makeSession = self.provider { assembly, user in await assembly.session(for: user) }
    /// let session = await makeSession(user)
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    ///   - read: Reads a member of the assembly it is given, with the call's arguments.
    /// - Returns: A function that calls `read` with this family's instance of the assembly.
    public func provider<each Argument, Value>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ read: @escaping @Sendable (Self, repeat each Argument) async -> Value
    ) -> @Sendable (repeat each Argument) async -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (arguments: repeat each Argument) async -> Value in
            await read(family.assembly(of: Self.self), repeat each arguments)
        }
    }

    /// A function that reads what the async, throwing `read` reads from this assembly's family each
    /// time it is called, and throws what `read` throws.
    ///
    /// ```swift
    /// let makeConnection = self.provider { (assembly, tenant: String) async throws(DatabaseError) in
    ///     try await assembly.connection(for: tenant)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the provider is made, for messages. Leave the default.
    ///   - line: Where the provider is made, for messages. Leave the default.
    ///   - read: Reads a member of the assembly it is given, with the call's arguments.
    /// - Returns: A function that calls `read` with this family's instance of the assembly.
    public func provider<each Argument, Value, Failure: Error>(
        file: StaticString = #fileID,
        line: UInt = #line,
        _ read: @escaping @Sendable (Self, repeat each Argument) async throws(Failure) -> Value
    ) -> @Sendable (repeat each Argument) async throws(Failure) -> Value {
        let family = ProvidedFamily(family, made: Self.self, file: file, line: line)
        return { (arguments: repeat each Argument) async throws(Failure) -> Value in
            try await read(family.assembly(of: Self.self), repeat each arguments)
        }
    }
}
