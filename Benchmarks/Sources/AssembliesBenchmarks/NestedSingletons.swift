// A chain of stored definitions claimed inside each other, 10,000 deep, against the same chain in
// object-graph scope: claiming, holding and publishing a singleton must cost the same at any depth
// (DESIGN-singletons.md, case G). Async methods with arguments, which have no stack to overflow.

import Assemblies

/// One level of the chain, pointing at the level below.
final class NestedLevel: @unchecked Sendable {
    // @unchecked: `below` only changes in `deinit`.
    private(set) var below: NestedLevel?

    init(below: NestedLevel?) {
        self.below = below
    }

    deinit {
        // Released level by level: 10,000 levels would otherwise release each other recursively.
        var next = below.take()
        while var level = next {
            next = nil
            guard isKnownUniquelyReferenced(&level) else { break }
            next = level.below.take()
        }
    }
}

final class NestedAssembly: Assembly, @unchecked Sendable {
    func singleton(_ depth: Int) async -> NestedLevel {
        await define(scope: .singleton, arguments: depth) {
            NestedLevel(below: depth > 0 ? await self.singleton(depth - 1) : nil)
        }
    }

    func objectGraph(_ depth: Int) async -> NestedLevel {
        await define(arguments: depth) {
            NestedLevel(below: depth > 0 ? await self.objectGraph(depth - 1) : nil)
        }
    }
}

enum NestedSingletons {
    static let depth = 10_000

    /// Object graph, then singleton: each operation builds the whole chain in a new assembly.
    static func subjects() -> [Subject] {
        let singletons = NestedAssembly()
        let top = waitFor { await singletons.singleton(depth) }
        if waitFor({ await singletons.singleton(depth) }) !== top {
            semanticCheckFailed("nested singletons", "Assemblies", "built a singleton twice")
        }
        return [
            asyncSubject("object graph") { await NestedAssembly().objectGraph(depth) },
            asyncSubject("singleton") { await NestedAssembly().singleton(depth) },
        ]
    }
}
