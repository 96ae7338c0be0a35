// Values a provider call carries into the graph it opens.

extension Assembly {
    /// The value of type `T` that the provider call which opened the graph being built carries:
    /// the request of a per-request graph, the job of a per-job one.
    ///
    /// ```swift
    /// var request: Request { define { self.graphArgument(Request.self) } }
    /// var handler: NotesHandler { define { NotesHandler(request: self.request, store: self.store) } }
    ///
    /// var controller: NotesController {
    ///     define(scope: .singleton) {
    ///         NotesController(makeHandler: self.provider(\.handler, carrying: Request.self))
    ///     }
    /// }
    /// ```
    ///
    /// Each call of the provider — `makeHandler(request)` — opens a graph that carries its values,
    /// one of each type, so the definitions of a request are plain properties: none takes the
    /// request as an argument, and tests replace them by key path. Read the argument in a
    /// definition of its own, as `request` above, so that a test can replace it too and read the
    /// others directly.
    ///
    /// The program stops with a message when the graph carries no `T` (the member was read other
    /// than through such a provider), and when a singleton, a weak singleton or an instance of a
    /// resettable scope being built would read it: it would keep the first graph's value.
    ///
    /// - Parameter type: The type of the value.
    /// - Returns: The value the provider call carried.
    public final func graphArgument<T>(_ type: T.Type = T.self) -> T {
        let arguments = Resolver.withCurrent { $0.graphArguments(of: family) } ?? AsyncGraph.arguments(of: family)
        guard let value = arguments?.value(of: T.self) else {
            Failure.noGraphArgument(T.self, reader: Self.self, carried: arguments?.typeNames ?? [])
        }
        return value
    }
}
