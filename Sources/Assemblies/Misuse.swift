/// A misuse of Assemblies met by a read that ``withMisuseThrown(_:)`` runs: the message that would
/// have stopped the program, which names the definitions involved and the fix.
public struct Misuse: Error, CustomStringConvertible {
    /// What happened, the definitions involved, and how to fix it.
    public let message: String

    public var description: String { message }
}

/// Runs `body` so that a misuse of Assemblies in it throws ``Misuse`` instead of stopping the
/// program: a test that meets one fails alone, and the others run.
///
/// ```swift
/// @Test func theCheckoutIsWired() async throws {
///     try await withMisuseThrown {
///         let app = ShopAssembly()
///         #expect(app.checkout.cart.items.isEmpty)
///     }
/// }
/// ```
///
/// `body` runs in a task on threads of its own, as do its child tasks (`async let`, task groups) and
/// the default actors they call; the caller's task-local values, ``Overrides`` applied included,
/// reach it, and cancelling the caller cancels it. A misuse there — a cycle through initializers, a
/// method with parameters read twice without `arguments:`, an endless recursion, a read after the
/// root's release — throws: the read can't go on, so its thread stays parked for the rest of the
/// process, keeping what it held — the family it read, a singleton it was building, which other
/// reads then wait for in vain: give each such test a root of its own. The body's other child tasks
/// don't run again (one that misuses too while running is printed as a warning). A misuse anywhere else still
/// stops the program: in a task `body` starts with `Task {}` or `Task.detached`, on an actor with an
/// executor of its own (`@MainActor` code), on a thread it starts, and on systems older than
/// macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2, where `body` runs in the calling task. Meant
/// for tests: a program that meets a misuse should stop, not go on.
///
/// - Parameter body: The code to run, which reads assemblies.
/// - Returns: What `body` returns.
/// - Throws: ``Misuse`` when `body` misuses the library, or what `body` throws.
public func withMisuseThrown<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let result = Locked<Result?>(nil)
    let ending = await LaneReadEnding.running {
        let value = try await body()
        result.withLock { $0 = value }
    }
    switch ending {
    case .returned: return result.withLock { $0! }
    case .threw(let error): throw error
    case .misused(let message): throw Misuse(message: message)
    }
}
