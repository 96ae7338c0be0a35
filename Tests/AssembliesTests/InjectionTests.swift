import Assemblies
import Testing

private final class Page {
    static let made = Counter()
    var squire: Squire?
    init() { Page.made.tick() }
}

private final class PagesAssembly: Assembly, @unchecked Sendable {
    var knights: KnightsAssembly { collaborator() }

    /// SPEC.md's shape: a method that registers the object it is given with `*~>`.
    func inject(_ page: Page) -> Page {
        define { definition in
            let page = definition *~> page
            page.squire = self.squire
            return page
        }
    }

    var squire: Squire { knights.inject(Squire()) }

    func injectBoth(_ first: Squire, _ second: Squire) -> (Squire, Squire) {
        define(scope: .prototype) { (knights.inject(first), knights.inject(second)) }
    }
}

@Suite struct InjectionTests {
    @Test func returnsTheSameObjectAndNeverConstructsAnother() {
        let assembly = KnightsAssembly()
        let squire = Squire()
        let injected = assembly.inject(squire)
        #expect(injected === squire)
        #expect(squire.master != nil)
        #expect(assembly.counter["inject(_:)"] == 1)

        let page = Page()
        let before = Page.made["init()"]
        #expect(PagesAssembly().inject(page) === page)
        #expect(Page.made["init()"] == before)
    }

    @Test func takesPartInCycles() {
        let squire = Squire()
        let page = PagesAssembly().inject(Page())
        #expect(page.squire?.master?.quest?.knight === page.squire?.master)
        _ = KnightsAssembly().inject(squire)
        #expect(squire.master?.quest?.knight === squire.master)
    }

    @Test func twoInjectionsInARowNeverShareAGraph() {
        let assembly = KnightsAssembly()
        let first = assembly.inject(Squire())
        let second = assembly.inject(Squire())
        #expect(first.master !== second.master)
        #expect(assembly.counter["knight"] == 2)
    }

    @Test func injectingTwoObjectsThroughOneMethodInOneGraphWiresBoth() {
        let first = Squire()
        let second = Squire()
        let (wiredFirst, wiredSecond) = PagesAssembly().injectBoth(first, second)
        #expect(wiredFirst === first)
        #expect(wiredSecond === second)
        #expect(first.master != nil)
        #expect(first.master === second.master)
    }

    @Test func injectingThousandsOfObjectsKeepsWorking() {
        // Each injected object adds a key; past 4,096 the thread's table is emptied when a graph
        // ends, and every key is found again.
        let assembly = KnightsAssembly()
        var squires: [Squire] = []
        for _ in 0..<5_000 {
            let squire = Squire()
            #expect(assembly.inject(squire) === squire)
            squires.append(squire)
        }
        #expect(squires.allSatisfy { $0.master != nil })
        #expect(assembly.counter["inject(_:)"] == 5_000)
    }
}
