import Assemblies
import Testing

// What `apply` does with overrides no read used: warn by default, or what `whenUnused` says —
// given to `apply` (a suite-wide trait) or to one `replace`.

private final class UnusedNetwork {}
private final class UnusedClock {}

private class UnusedCoreAssembly: Assembly, @unchecked Sendable {
    var network: UnusedNetwork { define(scope: .singleton) { UnusedNetwork() } }
    var clock: UnusedClock { define { UnusedClock() } }
}

private final class UnusedOfflineCoreAssembly: UnusedCoreAssembly, @unchecked Sendable {}

private final class UnusedAppAssembly: Assembly, @unchecked Sendable {
    var core: UnusedCoreAssembly { collaborator() }
}

/// Every call of a `.report`, in order.
private final class Reports: Sendable {
    private let received = Guarded<[[String]]>([])

    var calls: [[String]] { received.withLock { $0 } }

    var route: UnusedOverrides { .report { unused in self.received.withLock { $0.append(unused) } } }
}

/// Overrides of both core definitions: two unused until something reads them.
private func twoOverrides(of app: UnusedAppAssembly, network: UnusedOverrides? = nil) -> Overrides<UnusedAppAssembly> {
    let overrides = Overrides(of: app)
    overrides.replace(\.core.network, whenUnused: network) { UnusedNetwork() }
    overrides.replace(\.core.clock) { UnusedClock() }
    return overrides
}

private let warning = "was never used"

@Suite struct UnusedOverrideTests {
    @Test func applyWarnsOnStandardErrorByDefault() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = UnusedAppAssembly()
            let overrides = twoOverrides(of: app)
            overrides.apply { _ = app.core.network }
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "Assemblies: warning: the override of UnusedCoreAssembly.clock was never used. Check that it "
                    + "names a definition (or collaborator type) your code reads, or remove it."
            ),
            "\(output)"
        )
        #expect(!output.contains("UnusedCoreAssembly.network"), "\(output)")
    }

    @Test func applyCanIgnoreUnusedOverrides() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = UnusedAppAssembly()
            let overrides = twoOverrides(of: app)
            overrides.apply(whenUnused: .ignore) {}
            precondition(overrides.unused.count == 2, "still listed")
        }
        #expect(!stderr(of: result).contains(warning), "\(stderr(of: result))")
        #expect(!stderr(of: result).contains("Precondition failed"), "\(stderr(of: result))")
    }

    @Test func applyRoutesUnusedOverridesToOneReport() {
        let app = UnusedAppAssembly()
        let overrides = twoOverrides(of: app)
        let reports = Reports()
        overrides.apply(whenUnused: reports.route) {}
        #expect(reports.calls.map { $0.sorted() } == [["UnusedCoreAssembly.clock", "UnusedCoreAssembly.network"]])
        overrides.apply(whenUnused: reports.route) { _ = app.core.clock }
        #expect(reports.calls.count == 2)
        #expect(reports.calls.last == ["UnusedCoreAssembly.network"])
    }

    @Test func aReportIsNotCalledWhenEveryOverrideWasUsed() {
        let app = UnusedAppAssembly()
        let overrides = twoOverrides(of: app)
        let reports = Reports()
        overrides.apply(whenUnused: reports.route) {
            _ = app.core.network
            _ = app.core.clock
        }
        #expect(reports.calls.isEmpty)
    }

    @Test func aReportRunsWhenTheBodyThrows() {
        struct Failed: Error {}
        let app = UnusedAppAssembly()
        let overrides = twoOverrides(of: app)
        let reports = Reports()
        #expect(throws: Failed.self) {
            try overrides.apply(whenUnused: reports.route) { throw Failed() }
        }
        #expect(reports.calls.count == 1)
    }

    @Test func anAsyncApplyRoutesToo() async {
        let app = UnusedAppAssembly()
        let overrides = twoOverrides(of: app)
        let reports = Reports()
        await overrides.apply(whenUnused: reports.route) {
            await Task.yield()
            _ = app.core.network
        }
        #expect(reports.calls == [["UnusedCoreAssembly.clock"]])
    }

    @Test func anOverrideIgnoredByReplaceIsLeftOutOfTheApplysReport() {
        let app = UnusedAppAssembly()
        let overrides = twoOverrides(of: app, network: .ignore)
        let reports = Reports()
        overrides.apply(whenUnused: reports.route) {}
        #expect(reports.calls == [["UnusedCoreAssembly.clock"]])
        #expect(overrides.unused.sorted() == ["UnusedCoreAssembly.clock", "UnusedCoreAssembly.network"])
    }

    @Test func anOverridesOwnReportIsCalledForItAlone() {
        let app = UnusedAppAssembly()
        let own = Reports()
        let overrides = twoOverrides(of: app, network: own.route)
        let reports = Reports()
        overrides.apply(whenUnused: reports.route) {}
        #expect(own.calls == [["UnusedCoreAssembly.network"]])
        #expect(reports.calls == [["UnusedCoreAssembly.clock"]])
    }

    @Test func anOverridesOwnWarningWinsOverAnIgnoringApply() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = UnusedAppAssembly()
            let overrides = twoOverrides(of: app, network: .warn)
            overrides.apply(whenUnused: .ignore) {}
        }
        let output = stderr(of: result)
        #expect(output.contains("the override of UnusedCoreAssembly.network was never used"), "\(output)")
        #expect(!output.contains("UnusedCoreAssembly.clock"), "\(output)")
    }

    @Test func anUnusedSubstituteFollowsItsOwnWhenUnused() {
        let app = UnusedAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(UnusedCoreAssembly.self, with: UnusedOfflineCoreAssembly.self, whenUnused: .ignore)
        let reports = Reports()
        overrides.apply(whenUnused: reports.route) {}
        #expect(reports.calls.isEmpty)
        #expect(overrides.unused == ["UnusedOfflineCoreAssembly"])
        overrides.replace(UnusedCoreAssembly.self, with: UnusedOfflineCoreAssembly.self)
        overrides.apply(whenUnused: reports.route) {}
        #expect(reports.calls == [["UnusedOfflineCoreAssembly"]])
    }
}

// MARK: A suite-wide trait

/// What the trait's report received for the test it ran, and what the test says it should be.
private final class TraitRecord: Sendable {
    private let reports = Reports()
    private let expectedReports = Guarded<[[String]]>([])

    var reported: [[String]] { reports.calls }
    var route: UnusedOverrides { reports.route }
    var expected: [[String]] {
        get { expectedReports.withLock { $0 } }
        set { expectedReports.withLock { $0 = newValue } }
    }

    @TaskLocal static var current: TraitRecord?
    @TaskLocal static var app: UnusedAppAssembly?
}

/// Runs each test of a suite with both doubles, routing the unused ones to the test's record.
private struct SharedDoubles: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let app = UnusedAppAssembly()
        let overrides = twoOverrides(of: app)
        let record = TraitRecord()
        try await TraitRecord.$current.withValue(record) {
            try await TraitRecord.$app.withValue(app) {
                try await overrides.apply(whenUnused: record.route) {
                    try await function()
                }
            }
        }
        #expect(record.reported == record.expected)
    }
}

@Suite(SharedDoubles()) struct UnusedOverrideTraitTests {
    @Test func aTestThatReadsEveryDoubleReportsNothing() throws {
        let app = try #require(TraitRecord.app)
        _ = app.core.network
        _ = app.core.clock
    }

    @Test func aTestThatReadsOneDoubleReportsTheOther() throws {
        let app = try #require(TraitRecord.app)
        _ = app.core.network
        TraitRecord.current?.expected = [["UnusedCoreAssembly.clock"]]
    }

    @Test func aTestThatReadsNoDoubleReportsBoth() throws {
        TraitRecord.current?.expected = [["UnusedCoreAssembly.network", "UnusedCoreAssembly.clock"]]
    }
}
