import Assemblies
import Foundation
import Testing

// Async definitions where tasks, threads and families meet: a task that waits while its instance
// is taken or handed out, a synchronous read that re-enters another family below an async body,
// a cancellation that races the start of a wait, a synchronous recursion inside an async body.

private final class Bus: @unchecked Sendable {
    var service: Service?
}

private final class Service: @unchecked Sendable {
    let bus: Bus
    init(bus: Bus) { self.bus = bus }
}

private final class Start: @unchecked Sendable {
    let bus: Bus
    init(bus: Bus) { self.bus = bus }
}

/// A family that is never intercepted; its singleton reads a member of the family whose async
/// graph is open, which reads the singleton back.
private final class InfrastructureAssembly: Assembly, @unchecked Sendable {
    let app = Guarded<ApplicationAssembly?>(nil)

    var bus: Bus {
        define(scope: .singleton) { definition in
            let bus = definition *~> Bus()
            bus.service = self.app.withLock { $0 }?.service
            return bus
        }
    }
}

private final class ApplicationAssembly: Assembly, @unchecked Sendable {
    let infrastructure = InfrastructureAssembly()

    var service: Service { define { Service(bus: self.infrastructure.bus) } }

    var start: Start {
        get async {
            await define {
                self.infrastructure.app.withLock { $0 = self }
                await Task.yield()
                return Start(bus: self.infrastructure.bus)
            }
        }
    }
}

private final class Config: @unchecked Sendable {}

private final class Second: @unchecked Sendable {
    let config: Config
    init(config: Config) { self.config = config }
}

private final class First: @unchecked Sendable {
    let config: Config
    let second: Second
    init(config: Config, second: Second) {
        self.config = config
        self.second = second
    }
}

/// Two tasks: the first holds `config` back for its graph's steps and waits for `second`, which
/// the other task builds, reading `config`: a cycle of waits between a task and a task's
/// synchronous read, broken by taking the first task's instance.
private final class HandOverAssembly: Assembly, @unchecked Sendable {
    let readConfig = Gate()

    var config: Config {
        define(scope: .singleton) { definition in
            definition.afterAllInjections { _ in }
            return Config()
        }
    }

    var first: First {
        get async {
            await define {
                let config = self.config
                self.readConfig.open()
                return First(config: config, second: await self.second)
            }
        }
    }

    var second: Second {
        get async {
            await define(scope: .singleton) {
                await self.readConfig.wait()
                await untilSomeoneWaits(for: self, "second")  // the first task waits for this singleton
                return Second(config: self.config)
            }
        }
    }
}

private final class Session: @unchecked Sendable {
    var user: User?
    var token: Token?
}

private final class User: @unchecked Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}

private final class Token: @unchecked Sendable {}

/// A session whose body hands its instance out (a cycle through `user`) and then waits for a
/// singleton another task builds.
private final class SessionAssembly: Assembly, @unchecked Sendable {
    let gate = Gate()
    let counter = Counter()

    var session: Session {
        get async throws {
            try await define { definition in
                let session = definition *~> Session()
                session.user = try await self.user
                session.token = try await self.token
                return session
            }
        }
    }

    var user: User {
        get async throws { try await define { User(session: try await self.session) } }
    }

    var token: Token {
        get async throws {
            try await define(scope: .singleton) { () async throws -> Token in
                counter.tick("token")
                await self.gate.wait()
                return Token()
            }
        }
    }
}

private final class Level: @unchecked Sendable {
    let next: Level?
    init(next: Level?) { self.next = next }
}

private final class DeepAssembly: Assembly, @unchecked Sendable {
    func endless(_ depth: Int) -> Level {
        define(arguments: depth) { Level(next: self.endless(depth + 1)) }
    }

    var entry: Level {
        get async {
            await define {
                await Task.yield()
                return self.endless(0)
            }
        }
    }
}

private final class Held: @unchecked Sendable {}

private final class UsesHeld: @unchecked Sendable {
    let held: Held
    init(held: Held) { self.held = held }
}

private final class BuiltByB: @unchecked Sendable {
    let usesHeld: UsesHeld
    init(usesHeld: UsesHeld) { self.usesHeld = usesHeld }
}

private final class BuiltByA: @unchecked Sendable {
    let held: Held
    let builtByB: BuiltByB
    init(held: Held, builtByB: BuiltByB) {
        self.held = held
        self.builtByB = builtByB
    }
}

/// A cycle of waits through a thread and two tasks: task A holds `held` back for its graph's steps
/// and waits for `builtByB`, which task B builds; B reads `usesHeld`, which a thread builds; the
/// thread reads `held`, finds the cycle and takes A's instance. A must then not leave its wait.
private final class PinnedAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()
    let bStarted = Gate()
    let aWaits = Gate()
    let letBRead = Gate()
    let letBFinish = Gate()
    let threadStarted = Gate()
    let threadTookHeld = Gate()

    var held: Held {
        define(scope: .singleton) { definition in
            counter.tick("held")
            definition.afterAllInjections { _ in }
            return Held()
        }
    }

    var usesHeld: UsesHeld {
        define(scope: .singleton) {
            self.threadStarted.open()
            untilSomeoneWaits(for: self, "usesHeld")  // task B is blocked waiting for this singleton
            let held = self.held  // taken from task A, found on a cycle of waits and pinned
            self.threadTookHeld.open()
            return UsesHeld(held: held)
        }
    }

    var builtByB: BuiltByB {
        get async throws {
            try await define(scope: .singleton) { () async throws -> BuiltByB in
                self.bStarted.open()
                await self.letBRead.wait()
                let usesHeld = self.usesHeld
                await self.letBFinish.wait()
                return BuiltByB(usesHeld: usesHeld)
            }
        }
    }

    var builtByA: BuiltByA {
        get async throws {
            try await define {
                let held = self.held
                self.aWaits.open()
                return BuiltByA(held: held, builtByB: try await self.builtByB)
            }
        }
    }
}

@Suite("Async definitions: waits between tasks, threads and families", .timeLimit(.minutes(1)))
struct AsyncWaitTests {
    @Test func aFamilyThatReadsBackIntoTheTasksFamilyBelowAnAsyncBodyStopsInsteadOfWaitingForItself() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            _ = await ApplicationAssembly().start
        }
        let message = stderr(of: result)
        #expect(message.contains("a read waits for a singleton that a graph below it on the same thread"), "\(message)")
        #expect(
            message.contains(
                "the read is ApplicationAssembly.start → ApplicationAssembly.service → InfrastructureAssembly.bus"
            ),
            "\(message)"
        )
        #expect(message.contains("To fix this, read InfrastructureAssembly.bus in the async body first"), "\(message)")
    }

    @Test func aTaskWhoseInstanceWasTakenWhileItWaitedLetsTheTakerGoOn() async throws {
        let app = HandOverAssembly()
        let results = Guarded<(First, Second)?>(nil)
        let finished = await completes(within: 10) {
            async let first = app.first
            async let second = app.second
            let both = await (first, second)
            results.withLock { $0 = both }
        }
        #expect(finished, "the thread that took the instance waited for ever")
        let (first, second) = try #require(results.withLock { $0 })
        #expect(first.second === second)
        #expect(second.config === first.config)
        #expect(app.config === first.config)
    }

    @Test func aCancelledReaderWhoseInstanceIsHandedOutWaitsForTheSingleton() async throws {
        let app = SessionAssembly()
        let builder = Task { try await app.token }
        while app.counter["token"] == 0 { await Task.yield() }
        let reader = Task { try await app.session }
        await untilSomeoneWaits(for: app, "token")  // the reader waits for the token its builder builds
        reader.cancel()
        // The cancelled reader, whose instance was handed out, waits again.
        await untilSomeoneWaits(for: app, "token")
        app.gate.open()
        let session = try await reader.value
        #expect(session.user?.session === session)
        #expect(try await session.token === builder.value)
    }

    @Test func aCancelledTaskOnACycleOfWaitsThatAThreadBrokeKeepsWaiting() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let app = PinnedAssembly()
            let b = Task { try await app.builtByB }
            await app.bStarted.wait()
            let a = Task { try await app.builtByA }
            await app.aWaits.wait()
            await untilSomeoneWaits(for: app, "builtByB")  // A waits for builtByB
            let fromThread = Guarded<UsesHeld?>(nil)
            let threadFinished = Gate()
            Thread.detachNewThread {
                let usesHeld = app.usesHeld
                fromThread.withLock { $0 = usesHeld }
                threadFinished.open()
            }
            await app.threadStarted.wait()
            app.letBRead.open()  // B waits for usesHeld; the thread then finds the cycle
            await app.threadTookHeld.wait()
            a.cancel()
            // A, pinned, handled its cancellation by waiting again.
            await untilSomeoneWaits(for: app, "builtByB")
            app.letBFinish.open()
            guard let builtByA = try? await a.value, let builtByB = try? await b.value else { exit(3) }
            await threadFinished.wait()
            guard let usesHeld = fromThread.withLock({ $0 }) else { exit(4) }
            guard app.counter["held"] == 1 else { exit(5) }
            guard builtByA.held === usesHeld.held, builtByB.usesHeld === usesHeld, app.held === usesHeld.held else {
                exit(6)
            }
        }
        let message = stderr(of: result)
        #expect(!message.contains("Assemblies:"), "\(message)")
    }

    @Test func aCancellationThatRacesTheStartOfAWaitIsNeverLost() async {
        let finished = await completes(within: 30) {
            for _ in 0..<500 {
                let app = SessionAssembly()
                let builder = Task { try await app.token }
                while app.counter["token"] == 0 { await Task.yield() }
                let reader = Task { try await app.token }
                reader.cancel()
                _ = try? await reader.value
                app.gate.open()
                _ = try? await builder.value
            }
        }
        #expect(finished, "a cancelled reader went on waiting")
    }

    @Test func aSynchronousRecursionInAnAsyncBodyStopsBeforeTheStackRunsOut() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            _ = await DeepAssembly().entry
        }
        let message = stderr(of: result)
        #expect(message.contains("definitions deep, and the thread's stack is nearly used up"), "\(message)")
        #expect(message.contains("it began with DeepAssembly.entry"), "\(message)")
    }
}
