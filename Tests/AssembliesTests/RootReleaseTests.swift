import Assemblies
import Foundation
import Testing

private final class ReleaseDatabase: Sendable {}

/// Keeps a collaborator, as a controller that reads its assembly at each call would.
private final class ReleaseService: @unchecked Sendable {
    let assembly: ReleaseServiceAssembly
    let database: ReleaseDatabase

    init(assembly: ReleaseServiceAssembly, database: ReleaseDatabase) {
        self.assembly = assembly
        self.database = database
    }
}

/// Keeps a closure that reads the family.
private final class ReleaseScheduler: Sendable {
    let makeDatabase: @Sendable () -> ReleaseDatabase

    init(makeDatabase: @escaping @Sendable () -> ReleaseDatabase) {
        self.makeDatabase = makeDatabase
    }
}

/// Reads the family in its `deinit`.
private final class ReleaseAuditor: @unchecked Sendable {
    let assembly: ReleaseServiceAssembly

    init(assembly: ReleaseServiceAssembly) {
        self.assembly = assembly
    }

    deinit {
        _ = assembly.database
    }
}

private class ReleaseAppAssembly: Assembly, @unchecked Sendable {
    var services: ReleaseServiceAssembly { collaborator() }

    /// Keeps a closure that captured the root.
    var rootScheduler: ReleaseScheduler {
        define(scope: .singleton) { ReleaseScheduler { self.services.database } }
    }
}

private final class ReleaseTestAppAssembly: ReleaseAppAssembly, @unchecked Sendable {}

private final class ReleaseServiceAssembly: Assembly, @unchecked Sendable {
    var database: ReleaseDatabase { define(scope: .singleton) { ReleaseDatabase() } }

    var service: ReleaseService {
        define(scope: .singleton) { ReleaseService(assembly: self, database: self.database) }
    }

    var scheduler: ReleaseScheduler {
        define(scope: .singleton) { ReleaseScheduler { self.database } }
    }

    var auditor: ReleaseAuditor { define(scope: .singleton) { ReleaseAuditor(assembly: self) } }

    /// Releases the root, then reads the family's database twice in the graph that is open.
    func databasePair(releasing holder: ReleaseRootHolder) -> (ReleaseDatabase, ReleaseDatabase) {
        define {
            holder.root = nil
            return (self.database, self.database)
        }
    }

    /// Reads the family's counted database, releases the root, then reads it again in the graph
    /// that is open.
    func countedPair(releasing holder: ReleaseRootHolder) -> (ReleaseDatabase, ReleaseDatabase) {
        define {
            let before = self.countedDatabase
            holder.root = nil
            return (before, self.countedDatabase)
        }
    }

    /// How many times `countedDatabase` was built.
    let builds = Guarded(0)

    var countedDatabase: ReleaseDatabase {
        define(scope: .singleton) {
            self.builds.withLock { $0 += 1 }
            return ReleaseDatabase()
        }
    }

    let disposals = Guarded(0)

    /// A singleton per owner: its key keeps the owner, which holds this collaborator.
    func database(for owner: ReleaseOwner) -> ReleaseDatabase {
        define(scope: .singleton, arguments: owner) { ReleaseDatabase() }
    }

    var session: ReleaseSession {
        define(scope: .resettable("release-session")) { ReleaseSession(disposals: self.disposals) }
    }

    /// Releases the root, then reads the session twice, resets its scope and reads it again.
    func sessionsAroundAReset(releasing holder: ReleaseRootHolder) -> (ReleaseSession, ReleaseSession, ReleaseSession) {
        define {
            holder.root = nil
            let first = self.session
            let again = self.session
            self.reset(.resettable("release-session"))
            return (first, again, self.session)
        }
    }

    /// Releases the root, then reads the counted database twice without keeping it in between.
    func readsTwiceWithoutHolding(releasing holder: ReleaseRootHolder) -> Bool {
        define {
            holder.root = nil
            let first = ObjectIdentifier(self.countedDatabase)
            return first == ObjectIdentifier(self.countedDatabase)
        }
    }
}

private final class ReleaseObserver: ResolutionObserver {
    let members = Guarded<[String]>([])

    func didResolve(_ resolution: Resolution) {
        members.withLock { $0.append(resolution.definition.member) }
    }
}

private final class ReleaseSession: Disposable, @unchecked Sendable {
    let disposals: Guarded<Int>
    init(disposals: Guarded<Int>) { self.disposals = disposals }
    func dispose() { disposals.withLock { $0 += 1 } }
}

/// An argument value that holds a collaborator of the family it is passed to.
private final class ReleaseOwner: Hashable, @unchecked Sendable {
    let services: ReleaseServiceAssembly
    init(services: ReleaseServiceAssembly) { self.services = services }
    static func == (left: ReleaseOwner, right: ReleaseOwner) -> Bool { left === right }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

private final class ReleaseConnection: Sendable {}

private final class ReleaseAsyncAssembly: Assembly, @unchecked Sendable {
    // An async body (its type says so, as it awaits nothing): the async `define`, with a task's graph.
    var database: ReleaseDatabase {
        get async { await define(scope: .singleton) { () async -> ReleaseDatabase in ReleaseDatabase() } }
    }
}

/// Runs what it is given when the root that holds it begins its `deinit`.
private final class ReleaseDeinitProbe: Sendable {
    let onDeinit = Guarded<(@Sendable () -> Void)?>(nil)
}

/// A root whose `deinit` runs its probe: before `Assembly`'s own, while the family still names it.
private final class ReleaseProbedAppAssembly: Assembly, @unchecked Sendable {
    let probe = ReleaseDeinitProbe()

    var helper: ReleaseHelperAssembly { collaborator() }

    deinit {
        probe.onDeinit.withLock { $0 }?()
    }
}

/// A collaborator that asks the family for the root's type.
private final class ReleaseHelperAssembly: Assembly, @unchecked Sendable {
    var app: ReleaseProbedAppAssembly { collaborator() }
}

private final class ReleaseRootHolder: @unchecked Sendable {
    var root: ReleaseAppAssembly?
}

/// Releasing the root releases every instance its family keeps, whatever holds the family: a
/// singleton may keep a collaborator, or a closure that captured one.
@Suite struct RootReleaseTests {
    @Test func aSingletonThatHoldsACollaboratorIsReleasedWithTheRoot() {
        weak var root: ReleaseAppAssembly?
        weak var services: ReleaseServiceAssembly?
        weak var service: ReleaseService?
        weak var database: ReleaseDatabase?
        do {
            let app = ReleaseAppAssembly()
            let built = app.services.service
            root = app
            services = app.services
            service = built
            database = app.services.database
            #expect(built.database === database, "the family's database, read twice")
        }
        #expect(root == nil, "the root is released")
        #expect(service == nil, "and the singleton that holds a collaborator")
        #expect(services == nil, "and that collaborator")
        #expect(database == nil, "and every other singleton")
    }

    @Test func aFamilyAnAwaitReadWasMadeInIsReleasedWithItsLastAssembly() async {
        weak var root: ReleaseAsyncAssembly?
        weak var database: ReleaseDatabase?
        weak var connection: ReleaseConnection?
        do {
            let value = ReleaseConnection()
            connection = value
            let app = ReleaseAsyncAssembly(configuration: value)
            root = app
            database = await app.database
        }
        #expect(root == nil, "the root is released")
        #expect(database == nil, "and the singleton")
        // The thread the read ended on keeps its graph for the next one, but not the family, which
        // holds the configuration.
        #expect(connection == nil, "and the family with its configuration")
    }

    @Test func aSingletonThatHoldsAClosureReadingTheFamilyIsReleasedWithTheRoot() {
        weak var scheduler: ReleaseScheduler?
        weak var database: ReleaseDatabase?
        do {
            let app = ReleaseAppAssembly()
            let built = app.services.scheduler
            scheduler = built
            database = built.makeDatabase()
            #expect(database === app.services.database)
        }
        #expect(scheduler == nil)
        #expect(database == nil)
    }

    @Test func anotherThreadsCacheDoesntKeepASingletonOfAReleasedRoot() {
        weak var service: ReleaseService?
        weak var database: ReleaseDatabase?
        let read = DispatchSemaphore(value: 0)
        let checked = DispatchSemaphore(value: 0)
        do {
            let app = ReleaseAppAssembly()
            let services = app.services
            let thread = Thread {
                // Twice: the second read comes from this thread's cache.
                _ = services.service
                _ = services.service
                read.signal()
                checked.wait()  // the thread, and its cache, outlive the root
            }
            thread.start()
            #expect(read.wait(timeout: .now() + 20) == .success)
            service = app.services.service
            database = app.services.database
        }
        #expect(service == nil, "the other thread's cache names it, and doesn't keep it")
        #expect(database == nil)
        checked.signal()
    }

    @Test func aSingletonWhoseArgumentHoldsACollaboratorIsReleasedWithTheRoot() {
        weak var services: ReleaseServiceAssembly?
        weak var owner: ReleaseOwner?
        weak var database: ReleaseDatabase?
        do {
            let app = ReleaseAppAssembly()
            let reader = ReleaseOwner(services: app.services)
            services = app.services
            owner = reader
            database = app.services.database(for: reader)
            #expect(app.services.database(for: reader) === database, "read again: from this thread's cache")
        }
        #expect(database == nil)
        #expect(owner == nil, "the slot's key let go of its argument")
        #expect(services == nil, "so the argument let go of the collaborator, and the family went")
    }

    @Test func aThreadReadsANewFamilyWhereItsCacheNamedAReleasedOne() {
        let seen = Guarded<(released: Bool, sameTwice: Bool)>((false, false))
        let finished = finishes {
            weak var released: ReleaseDatabase?
            do {
                let app = ReleaseAppAssembly()
                released = app.services.database
                _ = app.services.database
            }
            // The same definition, in the same line of this thread's cache.
            let app = ReleaseAppAssembly()
            let database = app.services.database
            let again = app.services.database
            seen.withLock { $0 = (released == nil, again === database) }
        }
        #expect(finished)
        seen.withLock { seen in
            #expect(seen.released)
            #expect(seen.sameTwice, "built once in the new family")
        }
    }

    @Test func whatAGraphOpenAtTheReleaseBuildsIsSharedInItThenReleasedWhenItCloses() {
        weak var database: ReleaseDatabase?
        do {
            let holder = ReleaseRootHolder()
            holder.root = ReleaseAppAssembly()
            let services = holder.root!.services
            let pair = services.databasePair(releasing: holder)
            #expect(holder.root == nil, "the body released the root")
            #expect(pair.0 === pair.1, "the graph kept its singleton to the end")
            database = pair.0
        }
        #expect(database == nil, "released once the graph closed")
    }

    @Test func aGraphOpenAtTheReleaseGetsTheSingletonItReadBefore() {
        weak var database: ReleaseDatabase?
        do {
            let holder = ReleaseRootHolder()
            holder.root = ReleaseAppAssembly()
            let services = holder.root!.services
            let pair = services.countedPair(releasing: holder)
            #expect(pair.0 === pair.1, "the instance the graph holds, not a second one")
            #expect(services.builds.withLock { $0 } == 1, "built once")
            database = pair.0
        }
        #expect(database == nil)
    }

    @Test func aGraphOpenAtTheReleaseKeepsWhatItBuildsAfterItUntilItCloses() {
        let holder = ReleaseRootHolder()
        holder.root = ReleaseAppAssembly()
        let services = holder.root!.services
        #expect(services.readsTwiceWithoutHolding(releasing: holder), "one instance for the graph")
        #expect(services.builds.withLock { $0 } == 1, "built once")
    }

    @Test func aResetInAGraphOpenAtTheReleaseDropsAndDisposesOnce() {
        let holder = ReleaseRootHolder()
        holder.root = ReleaseAppAssembly()
        let services = holder.root!.services
        let (first, again, afterReset) = services.sessionsAroundAReset(releasing: holder)
        #expect(first === again, "one session for the graph")
        #expect(afterReset !== first, "the reset dropped it")
        #expect(services.disposals.withLock { $0 } == 1, "and disposed of it once")
    }

    @Test func anObservedGraphOpenAtTheReleaseReadsNoReleasedSingleton() {
        let holder = ReleaseRootHolder()
        holder.root = ReleaseAppAssembly()
        let services = holder.root!.services
        let observer = ReleaseObserver()
        services.observeResolutions(with: observer)
        weak var first: ReleaseDatabase?
        first = services.database
        _ = services.database  // its source is this thread's cache, which now names it
        let pair = services.databasePair(releasing: holder)
        #expect(first == nil, "released with the root")
        #expect(pair.0 === pair.1, "built again once, in the open graph")
        #expect(observer.members.withLock { $0.filter { $0 == "database" }.count } == 4)
    }

    @Test func aSingletonThatCapturedTheRootIsReleasedOnceTheFamilyShutsDown() async throws {
        weak var root: ReleaseAppAssembly?
        weak var scheduler: ReleaseScheduler?
        do {
            let app = ReleaseAppAssembly()
            let built = app.rootScheduler
            root = app
            scheduler = built
            _ = built.makeDatabase()
            try await app.shutDown()
        }
        #expect(root == nil, "the singleton's closure held the root until the family shut down")
        #expect(scheduler == nil)
    }

    /// Once its last reference has gone, the family never hands out the root: its memory is freed
    /// after its `deinit`, and a reference taken meanwhile would outlive it.
    @Test func aCollaboratorAskedForTheRootWhileTheRootsDeinitRunsGetsAnotherAssembly() {
        var app: ReleaseProbedAppAssembly? = ReleaseProbedAppAssembly()
        let rootID = ObjectIdentifier(app!)
        let helper = app!.helper
        #expect(helper.app === app, "while the root is alive, the family's instance of its type is the root")
        let seen = Guarded<ObjectIdentifier?>(nil)
        app!.probe.onDeinit.withLock { onDeinit in
            onDeinit = { seen.withLock { $0 = ObjectIdentifier(helper.app) } }
        }
        app = nil
        let seenID = seen.withLock { $0 }
        #expect(seenID != nil, "the root's deinit ran its probe")
        #expect(seenID != rootID, "the collaborator got another assembly, not the root being released")
    }

    /// A thread asks a collaborator for the root while another releases the root: it gets the root
    /// until its last reference goes, then other assemblies — never a reference to a root being
    /// released, which would outlive the root's memory (AddressSanitizer checks each).
    @Test func aCollaboratorAskedForTheRootWhileAnotherThreadReleasesItGetsTheRootOnlyWhileItLives() {
        for _ in 0..<200 {
            let holder = Guarded<ReleaseProbedAppAssembly?>(ReleaseProbedAppAssembly())
            // The root's probe, kept: no other object is made at its address.
            let (helper, rootProbe) = holder.withLock { ($0!.helper, $0!.probe) }
            let gotTheRootAfterAnother = Guarded(false)
            onThreads(2) { thread in
                if thread == 0 {
                    // Taken out of the holder first: the root's deinit runs outside the holder's lock.
                    let root = holder.withLock { root in
                        defer { root = nil }
                        return root
                    }
                    withExtendedLifetime(root) {}
                } else {
                    var gotAnother = false
                    for _ in 0..<20 {
                        let isRoot = helper.app.probe === rootProbe
                        if isRoot && gotAnother { gotTheRootAfterAnother.withLock { $0 = true } }
                        gotAnother = gotAnother || !isRoot
                    }
                }
            }
            #expect(!gotTheRootAfterAnother.withLock { $0 })
        }
    }

    @Test func aDeinitThatReadsTheFamilyAfterTheRootsReleaseStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            do {
                let app = ReleaseTestAppAssembly()
                _ = app.services.auditor
                withExtendedLifetime(app) {}
            }
        }
        #expect(
            stderr(of: result).contains(
                "ReleaseServiceAssembly.database was read after the root of its family, ReleaseTestAppAssembly, was released"
            )
        )
    }
}
