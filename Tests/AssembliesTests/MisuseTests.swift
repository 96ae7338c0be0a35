import Assemblies
import Testing

private final class MisuseStore: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

private struct MisuseError: Error {}

private final class MisuseAppAssembly: Assembly, @unchecked Sendable {
    var store: MisuseStore { define(scope: .singleton) { MisuseStore(name: "live") } }

    func label(_ name: String) -> String { define { name } }

    /// Reads a method with parameters twice without `arguments:`: misuse.
    var twoLabels: (String, String) { define { (self.label("a"), self.label("b")) } }
}

/// One singleton under one explicit key, read by an async getter that builds it across an `await`
/// and by a synchronous one, which blocks its thread while the other builds.
private final class MisuseSessionAssembly: Assembly, @unchecked Sendable {
    let claimed = Gate()

    var asyncSession: MisuseStore {
        get async {
            await define(withKey: "misuse-session", scope: .singleton) {
                self.claimed.open()
                await untilSomeoneWaits(for: self, "asyncSession")
                return MisuseStore(name: "session")
            }
        }
    }

    var syncSession: MisuseStore { define(withKey: "misuse-session", scope: .singleton) { MisuseStore(name: "?") } }
}

/// `withMisuseThrown`: a misuse in a test throws, so that test fails alone.
@Suite("Throwing misuse in a test") struct MisuseTests {
    @Test(.enabled(if: misuseIsReported)) func aMisuseThrowsItsMessage() async {
        let app = MisuseAppAssembly()
        await #expect {
            _ = try await withMisuseThrown { app.twoLabels }
        } throws: { error in
            guard let misuse = error as? Misuse else { return false }
            return misuse.message.contains("MisuseAppAssembly.label(_:) was read twice in one object graph")
                && misuse.description == misuse.message
        }
        #expect(app.store.name == "live", "the family is still read after the misuse, on this thread")
    }

    @Test(.enabled(if: misuseIsReported)) func twoChildTasksThatMisuseThrowOnce() async {
        let app = MisuseAppAssembly()
        await #expect(throws: Misuse.self) {
            try await withMisuseThrown {
                async let first = app.twoLabels
                async let second = app.twoLabels
                _ = await (first, second)
            }
        }
    }

    @Test(.enabled(if: misuseIsReported)) func aMisuseInAChildTaskThrowsToo() async {
        let app = MisuseAppAssembly()
        await #expect(throws: Misuse.self) {
            try await withMisuseThrown {
                async let labels = app.twoLabels
                _ = await labels
            }
        }
    }

    @Test(.enabled(if: misuseIsReported)) func aChildTaskThatBlocksItsThreadDoesntStopAnother() async {
        let app = MisuseSessionAssembly()
        let finished = await completes {
            let names = try? await withMisuseThrown {
                await withTaskGroup(of: String.self) { group in
                    group.addTask { await app.asyncSession.name }
                    group.addTask {
                        await app.claimed.wait()
                        return app.syncSession.name  // blocks its thread until the other publishes
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(names == ["session", "session"])
        }
        #expect(finished, "the building task ran on another thread of the lane")
    }

    @Test func whatTheBodyReturnsOrThrowsComesBack() async throws {
        let app = MisuseAppAssembly()
        let name = try await withMisuseThrown { app.store.name }
        #expect(name == "live")
        await #expect(throws: MisuseError.self) {
            try await withMisuseThrown { throw MisuseError() }
        }
    }

    @Test func theCallersOverridesReachTheBody() async throws {
        let app = MisuseAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.store) { MisuseStore(name: "double") }
        let name = try await overrides.apply {
            try await withMisuseThrown { app.store.name }
        }
        #expect(name == "double")
    }
}
