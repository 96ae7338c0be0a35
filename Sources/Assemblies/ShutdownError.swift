/// What the instances of a family threw while it shut down (see ``Assembly/shutDown()``).
///
/// Every instance is shut down, whatever the others threw: the error lists each failure, in the
/// order the instances were shut down.
///
/// ```swift
/// do {
///     try await app.shutDown()
/// } catch {
///     for failure in error.failures {
///         logger.error("\(failure.definition) didn't shut down: \(failure.error)")
///     }
/// }
/// ```
public struct ShutdownError: Error, CustomStringConvertible {
    /// One instance's shutdown that threw.
    public struct Failure: Sendable {
        /// The definition whose instance it was, as `AssemblyType.member`.
        public let definition: String
        /// What its shutdown threw.
        public let error: any Error
    }

    /// Each shutdown that threw, in the order the instances were shut down.
    public let failures: [Failure]

    /// One line per failure: the definition, then what it threw.
    public var description: String {
        failures.map { "\($0.definition): \($0.error)" }.joined(separator: "\n")
    }
}
