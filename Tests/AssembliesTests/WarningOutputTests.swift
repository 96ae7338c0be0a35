import Assemblies
import Testing

// Where warnings go: standard error by default, or the handler of the task that writes them — so
// that tests of warnings capture them, and tests running in parallel never see each other's.

private final class Journal {}
private final class Archive {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
}

private final class ArchiveAssembly: Assembly, @unchecked Sendable {
    var journal: Journal { define { Journal() } }
    /// A captive dependency: the singleton keeps the first graph's journal.
    var archive: Archive { define(scope: .singleton) { Archive(journal: self.journal) } }
}

private let captive = "Assemblies: warning: captive dependency: ArchiveAssembly.archive (singleton) reads "

@Suite struct WarningOutputTests {
    @Test func aTasksHandlerReceivesItsWarningsAsLines() {
        let warnings = CapturedWarnings()
        warnings.capture {
            _ = ArchiveAssembly().archive
        }
        #expect(warnings.all.count == 1, "\(warnings.all)")
        #expect(warnings.all.first?.hasPrefix(captive + "ArchiveAssembly.journal (objectGraph)") == true)
        #expect(warnings.all.first?.hasSuffix("\n") == false)
    }

    @Test func tasksRunningAtOnceCaptureOnlyTheirOwnWarnings() async {
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let warnings = CapturedWarnings()
                    warnings.capture {
                        _ = ArchiveAssembly().archive  // a family of its own: one warning each
                    }
                    return warnings.containing(captive).count
                }
            }
            var counts: [Int] = []
            for await count in group { counts.append(count) }
            return counts
        }
        #expect(counts == [1, 1, 1, 1])
    }

    @Test func childTasksWriteToTheirParentsHandler() async {
        let warnings = CapturedWarnings()
        await warnings.capture {
            async let archive = ArchiveAssembly().archive
            _ = await archive
        }
        #expect(warnings.containing(captive).count == 1, "\(warnings.all)")
    }

    @Test func withoutAHandlerWarningsGoToStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            _ = ArchiveAssembly().archive
        }
        #expect(stderr(of: result).contains(captive + "ArchiveAssembly.journal"), "\(stderr(of: result))")
    }
}
