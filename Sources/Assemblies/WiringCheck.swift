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
/// - **Misuse** — a cycle through initializers, a method with parameters read twice without
///   `arguments:`, an explicit key used for two types, a missing configuration value, an endless
///   recursion — with the message that would have stopped the program, which names the definitions
///   and the fix.
///
/// Where misuse is reported, and where it still stops the program: each root is read in a task on
/// threads of the check's own, and a misuse there — in the read, in its child tasks (`async let`,
/// task groups) and in the default actors they call, which run there too — is reported: the read
/// can't go on, so its thread stays parked for the rest of the process, keeping what it held (an
/// actor it was running stays busy), and the next roots are read in a new sandbox. A misuse
/// anywhere else still stops the program: in a task the read starts with `Task {}` or
/// `Task.detached`, on an actor with an executor of its own (the main actor), on a thread it starts;
/// on systems older than macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2, where a task can't be
/// given threads of its own; and in every read outside a check. A check that reports a misuse is
/// meant to fail — a test, or a server's start-up — not to be followed by serving requests.
public final class WiringCheck<Root: Assembly>: Sendable {
    private let root: Root
    private let overrides: Overrides<Root>
    private let roots = Locked<[Read]>([])

    /// A root to read: `name` names it, or, when nil, the first definition it reads.
    private typealias Read = (name: String?, read: @Sendable (Root) async throws -> Void)

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
    /// - Parameter keyPath: A member the program reads, named in the report by the definition it
    ///   reads (`AppAssembly.controller`).
    public func read<Value>(_ keyPath: KeyPath<Root, Value> & Sendable) {
        roots.withLock { $0.append((nil, { root in _ = root[keyPath: keyPath] })) }
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

    /// Reads every root in a sandbox of the family, once each, in the order they were added, each
    /// in a task on threads of its own, and returns what it found.
    ///
    /// - Parameter isolation: The actor the check runs on, the caller's by default; the reads run on
    ///   threads of their own.
    public func run(isolation: isolated (any Actor)? = #isolation) async -> WiringReport {
        let found = WiringFindings()
        WiringFindings.running.increment()
        defer { WiringFindings.running.decrement() }
        var unread = roots.withLock { $0 }[...]
        while !unread.isEmpty {
            // One sandbox for every root, unless a read stops: it may have left the sandbox's
            // singletons half-built, and the next root is read in a new one.
            await overrides.apply(isolation: isolation, whenUnused: .ignore) {
                await WiringFindings.$current.withValue(
                    found,
                    operation: { () async -> Void in
                        var stopped = false
                        while !stopped, let (given, read) = unread.popFirst() {
                            found.beginRoot()
                            let root = self.root
                            let ending = await LaneReadEnding.running { try await read(root) }
                            let firstRead = found.endRoot()
                            let name = given ?? firstRead ?? "a key path of \(Root.self)"
                            switch ending {
                            case .returned:
                                break
                            case .threw(let error):
                                found.add(.threw(root: name, error: error))
                            case .misused(let message):
                                found.add(.misuse(root: name, message: message))
                                stopped = true
                            }
                        }
                        // The sandbox's instances release what they own, as the family's would.
                        guard let sandbox = OverrideContext.innermost(for: root.family)?.singletons() else { return }
                        let failures =
                            stopped
                            ? await sandbox.shutDownPublishedInstances()
                            : await sandbox.shutDownInstances(running: { try await $0() })
                        for failure in failures {
                            found.add(.threw(root: "the shutdown of \(failure.definition)", error: failure.error))
                        }
                    },
                    isolation: isolation
                )
            }
        }
        for description in overrides.unused {
            found.add(.unusedOverride(description))
        }
        return WiringReport(problems: found.all)
    }
}
