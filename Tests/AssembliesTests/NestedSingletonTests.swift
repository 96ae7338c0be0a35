import Assemblies
import Foundation
import Testing

extension Scope {
    fileprivate static let nestedSession = Scope.resettable("nested-session")
}

private final class Level: @unchecked Sendable {
    // @unchecked: `below` only changes in `deinit`.
    let depth: Int
    private(set) var below: Level?

    init(_ depth: Int, below: Level?) {
        self.depth = depth
        self.below = below
    }

    /// How many levels hang below this one, counted without recursion.
    var count: Int {
        var count = 0
        var level: Level? = self
        while let current = level {
            count += 1
            level = current.below
        }
        return count
    }

    deinit {
        // Released level by level: a chain 10,000 deep would otherwise release itself recursively.
        var next = below.take()
        while var level = next {
            next = nil
            guard isKnownUniquelyReferenced(&level) else { break }
            next = level.below.take()
        }
    }
}

/// Each level a stored definition whose body reads the level below it: a chain of singletons
/// claimed inside each other, as deep as the caller asks. Async methods have no stack to overflow.
private final class TowerAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    func level(_ depth: Int, scope: Scope) async -> Level {
        await define(scope: scope, arguments: depth) {
            counter.tick("level")
            return Level(depth, below: depth > 0 ? await self.level(depth - 1, scope: scope) : nil)
        }
    }
}

/// `DESIGN-singletons.md`, case G: claiming, holding and publishing a slot cost the same at any
/// depth, so a chain of nested singletons costs what a chain of object-graph definitions costs. The
/// time limit fails a quadratic claim: copying the chain into every slot took minutes and gigabytes
/// at this depth.
@Suite("Nested singletons", .timeLimit(.minutes(1)))
struct NestedSingletonTests {
    static let depth = 10_000

    @Test(arguments: [Scope.singleton, .weakSingleton, .nestedSession])
    func aChainOfNestedStoredDefinitionsIsBuiltOnceAtAnyDepth(_ scope: Scope) async {
        let app = TowerAssembly()
        let top = await app.level(Self.depth, scope: scope)
        #expect(top.count == Self.depth + 1)
        #expect(app.counter["level"] == Self.depth + 1, "each level's body ran once")
        #expect(await app.level(Self.depth, scope: scope) === top, "read again: the same instance")
        #expect(await app.level(Self.depth / 2, scope: scope) === find(Self.depth / 2, in: top))
        #expect(app.counter["level"] == Self.depth + 1, "nothing was built again")
    }

    private func find(_ depth: Int, in top: Level) -> Level? {
        var level: Level? = top
        while let current = level, current.depth != depth { level = current.below }
        return level
    }
}
