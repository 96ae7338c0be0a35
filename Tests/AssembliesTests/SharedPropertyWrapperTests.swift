import Assemblies
import Foundation
import Testing

// Property wrappers that are safe to share: a getter that doesn't mutate, one resolution however
// many threads read first, `Sendable` when the value is. Threads don't inherit a task's default
// family, so these tests set the program-wide default, in exit tests' child processes.

private final class SharedSession: Sendable {}

private final class SharedAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var session: SharedSession {
        define(scope: .prototype) {
            counter.tick()
            return SharedSession()
        }
    }

    /// Opened once `slowSession`'s body runs.
    let slowSessionStarted = DispatchSemaphore(value: 0)

    /// Slow to build: it takes longer than the wait warning's delay, so that a thread that reads it
    /// meanwhile warns.
    var slowSession: SharedSession {
        define(scope: .prototype) {
            slowSessionStarted.signal()
            Thread.sleep(forTimeInterval: 0.4)
            return SharedSession()
        }
    }

    /// Resolving it reads the very property that is being resolved.
    var loopingSession: SharedSession {
        define(scope: .prototype) { loopingHolder.session }
    }

    /// The same, read again by a synchronous read that joined a task's graph.
    var joinedLoopingSession: SharedSession {
        define(scope: .prototype) { joinedLoopingHolder.session }
    }

    /// An async body that reads the property first: resolving it joins the task's graph.
    var asyncLooping: SharedSession {
        get async { await define(scope: .prototype) { () async in joinedLoopingHolder.session } }
    }
}

/// A `Sendable` struct — a SwiftUI view, say — whose wrapped properties are read, never mutated.
private struct SharedHolder: Sendable {
    @Injected(\SharedAssembly.session) var session: SharedSession
    @InjectedIfAvailable(\SharedAssembly.session) var optionalSession: SharedSession?
    @WeaklyInjected(\SharedAssembly.session) var weakSession: SharedSession?

    /// Reads the properties from a getter that can't mutate.
    var description: String { "\(ObjectIdentifier(session)) \(optionalSession != nil)" }
}

private struct SlowHolder: Sendable {
    @Injected(\SharedAssembly.slowSession) var session: SharedSession
}

private struct LoopingHolder: Sendable {
    @Injected(\SharedAssembly.loopingSession) var session: SharedSession
}

private let loopingHolder = LoopingHolder()

private struct JoinedLoopingHolder: Sendable {
    @Injected(\SharedAssembly.joinedLoopingSession) var session: SharedSession
}

private let joinedLoopingHolder = JoinedLoopingHolder()

/// The identities that `read` returns on eight threads reading one new holder at once, 50 times.
private func identitiesReadOnThreads(
    _ read: @escaping @Sendable (SharedHolder) -> SharedSession?
) -> [Set<ObjectIdentifier?>] {
    (0..<50).map { _ in
        let holder = SharedHolder()
        let seen = Guarded<Set<ObjectIdentifier?>>([])
        onThreads(8) { _ in
            let identity = read(holder).map(ObjectIdentifier.init)
            seen.withLock { $0.insert(identity) }
        }
        return seen.withLock { $0 }
    }
}

/// What a read of `loopingHolder.session` or `joinedLoopingHolder.session` while resolving it prints.
private let readWhileResolving =
    "@Injected(\\SharedAssembly.…) was read as SharedSession while this thread was resolving that very property"

@Suite struct SharedPropertyWrapperTests {
    @Test func injectedIsResolvedOnceWhenManyThreadsReadItFirst() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = SharedAssembly()
            app.makeDefault()
            let rounds = identitiesReadOnThreads { $0.session }
            precondition(rounds.allSatisfy { $0.count == 1 }, "every thread got the same instance")
            precondition(app.counter["session"] == 50, "one resolution per holder, not one per thread")
        }
        #expect(!stderr(of: result).contains("Precondition failed"), "\(stderr(of: result))")
    }

    @Test func injectedIfAvailableIsResolvedOnceWhenManyThreadsReadItFirst() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = SharedAssembly()
            app.makeDefault()
            let rounds = identitiesReadOnThreads { $0.optionalSession }
            precondition(rounds.allSatisfy { $0.count == 1 && !$0.contains(nil) }, "the same instance")
            precondition(app.counter["session"] == 50)
        }
        #expect(!stderr(of: result).contains("Precondition failed"), "\(stderr(of: result))")
    }

    @Test func weaklyInjectedIsResolvedOnceWhenManyThreadsReadItFirst() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = SharedAssembly()
            app.makeDefault()
            let keep = Guarded<[SharedSession]>([])
            let rounds = identitiesReadOnThreads { holder in
                let session = holder.weakSession
                if let session { keep.withLock { $0.append(session) } }  // alive until every thread read it
                return session
            }
            precondition(rounds.allSatisfy { $0.count == 1 && !$0.contains(nil) }, "the same instance")
            precondition(app.counter["session"] == 50)
        }
        #expect(!stderr(of: result).contains("Precondition failed"), "\(stderr(of: result))")
    }

    @Test func aSharedHolderIsReadFromAGetterThatDoesNotMutate() {
        let app = SharedAssembly()
        let holder = SharedHolder()  // a `let`: every access below goes through a non-mutating getter
        app.makeDefault {
            let description = holder.description
            #expect(description == "\(ObjectIdentifier(holder.session)) true")
            #expect(holder.session === holder.session)
            #expect(app.counter["session"] == 2, "@Injected and @InjectedIfAvailable resolve one each")
        }
    }

    @Test func aSharedHolderCrossesToOtherTasks() async {
        let app = SharedAssembly()
        let holder = SharedHolder()
        let first = app.makeDefault { holder.session }
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { ObjectIdentifier(holder.session) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities == [ObjectIdentifier(first)], "copies share the value resolved once")
    }

    @Test func assigningFromAnotherThreadReplacesTheValueForEveryCopy() {
        let app = SharedAssembly()
        let holder = SharedHolder()
        let replacement = SharedSession()
        app.makeDefault { _ = holder.session }
        #expect(finishes { holder.session = replacement })
        #expect(holder.session === replacement)
        holder.optionalSession = nil  // forgets it: the next read resolves again
        app.makeDefault { #expect(holder.optionalSession != nil) }
        #expect(app.counter["session"] == 2)
    }

    @Test func aThreadWaitingLongForAnotherThreadsResolutionWarns() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Assembly.singletonWaitWarningDelay = 0.1
            let app = SharedAssembly()
            app.makeDefault()
            let holder = SlowHolder()
            let seen = Guarded<Set<ObjectIdentifier>>([])
            onThreads(2) { thread in
                // The second reader reads once the first is resolving.
                if thread == 1 { app.slowSessionStarted.wait() }
                let identity = ObjectIdentifier(holder.session)
                seen.withLock { $0.insert(identity) }
            }
            precondition(seen.withLock { $0.count } == 1, "the waiting thread got the same instance")
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                "Assemblies: warning: a thread has waited 0.1 s for @Injected(\\SharedAssembly.…) as "
                    + "SharedSession, which another thread is resolving; it goes on waiting."
            ),
            "\(output)"
        )
        #expect(!output.contains("Precondition failed"), "\(output)")
    }

    @Test func readingAPropertyWhileResolvingItStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = SharedAssembly()
            app.makeDefault()
            _ = loopingHolder.session
        }
        let output = stderr(of: result)
        #expect(output.contains(readWhileResolving), "\(output)")
        #expect(output.contains("pass the dependency in through the definition"), "\(output)")
    }

    @Test func readingAPropertyWhileResolvingItInATaskStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let app = SharedAssembly()
            app.makeDefault()
            // The async body reads the property; resolving it, a synchronous read joins the task's
            // graph and reads the property again: the same thread, so it stops instead of waiting.
            _ = await app.asyncLooping
        }
        let output = stderr(of: result)
        #expect(output.contains(readWhileResolving), "\(output)")
    }
}
