/// What ``Overrides/apply(whenUnused:_:)`` does, as it returns, with the overrides that
/// no read used.
///
/// An unused override usually means a key path to the wrong definition, so by default each one is
/// reported with a warning. Tests that share a set of doubles — through a suite-wide trait, say —
/// don't all read every double: turn the report off, or route it to the test.
///
/// ```swift
/// // In a Swift Testing trait: unused doubles become issues of the test that left them unused.
/// try await overrides.apply(whenUnused: .report { unused in
///     Issue.record("unused overrides: \(unused)")
/// }) {
///     try await function()
/// }
///
/// // A double some tests don't need.
/// overrides.replace(\.analytics, whenUnused: .ignore) { SilentAnalytics() }
/// ```
public enum UnusedOverrides: Sendable {
    /// Writes one warning per unused override to standard error; the default.
    case warn
    /// Reports nothing.
    case ignore
    /// Calls `report` with the unused overrides, as ``Overrides/unused`` describes them, when there
    /// is at least one. It runs in the task that called `apply`, after `body` has returned (or
    /// thrown), and no lock of the library is held.
    case report(@Sendable (_ unused: [String]) -> Void)
}
