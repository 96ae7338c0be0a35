import Assemblies
import Testing

private final class Clock {}

private class LeftAssembly: Assembly, @unchecked Sendable {
    var right: RightAssembly { collaborator() }
    var clock: Clock { define(scope: .singleton) { Clock() } }
}

private final class RightAssembly: Assembly, @unchecked Sendable {
    var left: LeftAssembly { collaborator() }
    var clock: Clock { left.clock }
}

private final class TestLeftAssembly: LeftAssembly, @unchecked Sendable {}

/// Lets a body release the root it was read through.
private final class RootHolder: @unchecked Sendable {
    var root: LeftAssembly?
}

extension RightAssembly {
    /// Releases the root, then reads the family's clock twice in the graph that is open.
    func clockPair(releasing holder: RootHolder) -> (Clock, Clock) {
        define {
            holder.root = nil
            return (self.left.clock, self.left.clock)
        }
    }
}

private final class AsyncLeftAssembly: Assembly, @unchecked Sendable {
    var right: AsyncRightAssembly { collaborator() }
}

private final class AsyncRightAssembly: Assembly, @unchecked Sendable {
    var clock: Clock {
        get async {
            await define(scope: .singleton) {
                await Task.yield()
                return Clock()
            }
        }
    }
}

@Suite struct CollaboratorTests {
    @Test func aCollaboratorJoinsTheFamilyAndSharesItsSingletons() {
        let left = LeftAssembly()
        #expect(left.right.clock === left.clock)
    }

    @Test func aFamilyHoldsOneAssemblyOfEachTypeAndTheRootItself() {
        let left = LeftAssembly()
        #expect(left.right === left.right)
        #expect(left.right.left === left)
    }

    @Test func aSubclassRootIsReachedThroughItsSuperclass() {
        let left = TestLeftAssembly()
        #expect(left.right.left === left)
    }

    @Test func aNewRootStartsANewFamily() {
        let first = LeftAssembly()
        let second = LeftAssembly()
        #expect(first.right !== second.right)
        #expect(first.clock !== second.clock)
        #expect(RightAssembly().clock !== first.clock)
    }

    @Test func theOrderInWhichAssembliesAreTouchedDoesNotMatter() {
        let right = RightAssembly()
        let clock = right.clock
        #expect(right.left.right === right)
        #expect(right.left.clock === clock)
    }

    @Test func releasingTheRootReleasesTheFamily() {
        weak var collaborator: RightAssembly?
        weak var clock: Clock?
        do {
            let left = LeftAssembly()
            collaborator = left.right
            clock = left.right.clock
            #expect(collaborator != nil)
        }
        #expect(collaborator == nil)
        #expect(clock == nil)
    }

    @Test func aReadThroughACollaboratorKeptBeyondItsRootStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            var right: RightAssembly?
            do {
                let left = TestLeftAssembly()
                right = left.right
                _ = right?.clock
                withExtendedLifetime(left) {}
            }
            _ = right?.clock
        }
        let message = stderr(of: result)
        #expect(
            message.contains("LeftAssembly.clock was read after the root of its family, TestLeftAssembly, was released")
        )
        #expect(message.contains("keep the TestLeftAssembly you created for as long as you read from its family"))
        #expect(message.contains("keeps a provider (`provider(\\.member)`)"))
    }

    @Test func anAsyncReadThroughACollaboratorKeptBeyondItsRootStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            var right: AsyncRightAssembly?
            do {
                let left = AsyncLeftAssembly()
                right = left.right
                _ = await right?.clock
                withExtendedLifetime(left) {}
            }
            _ = await right?.clock
        }
        #expect(
            stderr(of: result).contains(
                "AsyncRightAssembly.clock was read after the root of its family, AsyncLeftAssembly, was released"
            )
        )
    }

    @Test func aGraphOpenWhenTheRootIsReleasedFinishes() {
        let holder = RootHolder()
        holder.root = LeftAssembly()
        let right = holder.root!.right
        weak var root: LeftAssembly?
        root = holder.root
        let pair = right.clockPair(releasing: holder)
        #expect(root == nil, "the body released the root")
        #expect(pair.0 === pair.1, "the graph kept its singleton to the end")
    }
}
