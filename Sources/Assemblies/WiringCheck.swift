/// The reads a server makes — its roots — checked before it serves: each one read once, in a
/// sandbox of the family, with every problem the library can report collected instead of printed.
///
/// Name what the program reads, including the per-request methods with sample arguments, and run
/// the check at start-up or in one test:
///
/// ```swift
/// let check = WiringCheck(of: app)
/// check.read(\.notesController)
/// check.read("handler(for:)") { app in try await app.handler(for: .sample) }
/// let report = await check.run()
/// #expect(report.problems.isEmpty, "\(report)")
/// ```
///
/// The sandbox leaves the live family untouched: the check reads with ``Overrides`` of its own (or
/// those you give it), so every singleton it reads is built anew for the check, and none is
/// published to the family; the family's captive-dependency mode and the chains it has reported
/// don't change. What the check finds:
///
/// - **Errors** a root's read throws, each with the root's name: the other roots are still read.
/// - **Captive dependencies** (see ``CaptiveDependencies``), whatever the family's mode, in a debug
///   build of the library — release builds don't check for them.
/// - **Overrides no read used**, of the overrides given to ``init(of:applying:)``.
/// - **Errors a shutdown throws**: the instances the check built that declared a shutdown
///   (``Definition/onShutdown(_:)``) are shut down before ``run(isolation:)`` returns.
///
/// Misuse — a cycle through initializers, a method with parameters read twice without `arguments:`,
/// an explicit key used for two types, a configuration value that is missing — stops the program
/// with its message, as it would in any read: the check makes it stop at start-up rather than at the
/// first request that meets it. In a test, run the check inside an exit test
/// (`#expect(processExitsWith: .success) { ... }`) so that a stop fails that test alone.
public final class WiringCheck<Root: Assembly>: Sendable {
    private let root: Root
    private let overrides: Overrides<Root>
    private let roots = Locked<[(name: String, read: @Sendable (Root) async throws -> Void)]>([])

    /// A check of the family of `root`, which reads in a sandbox with `overrides` applied — or with
    /// none.
    ///
    /// - Parameters:
    ///   - root: Any assembly of the family; the reads start from it.
    ///   - overrides: The doubles to check with, whose unused overrides the report lists.
    public init(of root: Root, applying overrides: Overrides<Root>? = nil) {
        self.root = root
        self.overrides = overrides ?? Overrides(of: root)
    }

    /// Adds `keyPath` to the roots the check reads.
    ///
    /// - Parameter keyPath: A member the program reads, named in the report by the key path.
    public func read<Value>(_ keyPath: KeyPath<Root, Value> & Sendable) {
        roots.withLock { $0.append((String(describing: keyPath), { root in _ = root[keyPath: keyPath] })) }
    }

    /// Adds a read — a method with sample arguments, a member declared `get async` or `throws` — to
    /// the roots the check reads.
    ///
    /// - Parameters:
    ///   - name: What the report calls the root.
    ///   - read: Reads the root from the assembly it is given.
    public func read(_ name: String, _ read: @escaping @Sendable (Root) async throws -> Void) {
        roots.withLock { $0.append((name, read)) }
    }

    /// Reads every root in a sandbox of the family, once each, in the order they were added, and
    /// returns what it found.
    ///
    /// - Parameter isolation: The actor the reads run on; the caller's by default.
    public func run(isolation: isolated (any Actor)? = #isolation) async -> WiringReport {
        let found = WiringFindings()
        await overrides.apply(isolation: isolation, whenUnused: .ignore) {
            await WiringFindings.$current.withValue(
                found,
                operation: { () async -> Void in
                    for (name, read) in roots.withLock({ $0 }) {
                        do {
                            try await read(root)
                        } catch {
                            found.add(.threw(root: name, error: error))
                        }
                    }
                    // The sandbox's instances release what they own, as the family's would.
                    if let sandbox = OverrideContext.innermost(for: root.family)?.singletons() {
                        for failure in await sandbox.shutDownInstances(running: { try await $0() }) {
                            found.add(.threw(root: "the shutdown of \(failure.definition)", error: failure.error))
                        }
                    }
                },
                isolation: isolation
            )
        }
        for description in overrides.unused {
            found.add(.unusedOverride(description))
        }
        return WiringReport(problems: found.all)
    }
}
