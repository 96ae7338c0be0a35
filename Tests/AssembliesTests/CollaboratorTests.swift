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

    @Test func aCollaboratorKeptBeyondItsRootStillSharesTheSingletons() {
        let right = LeftAssembly().right
        #expect(right.clock === right.clock)
    }
}
