import Testing

@testable import Assemblies

private class RepresentedBase {}
private final class RepresentedSub: RepresentedBase {}
private protocol ClassBoundService: AnyObject { func serve() }
private final class RepresentedService: ClassBoundService { func serve() {} }
private struct OneReference { let object: RepresentedBase }

private final class RepresentationAssembly: Assembly, @unchecked Sendable {
    var anyObject: AnyObject { define(scope: .singleton) { RepresentedSub() } }
    var service: any ClassBoundService { define(scope: .singleton) { RepresentedService() } }
    var pair: (AnyObject, AnyObject) { define { (self.anyObject, self.anyObject) } }
}

/// Which instances the engine keeps as they are and which it boxes (``isReference(_:)``): decided
/// where a getter is specialized, and from the type's metadata elsewhere — as in these tests, built
/// without optimization — with one answer for each type, so that a definition read by both kinds of
/// code keeps one representation.
@Suite struct InstanceRepresentationTests {
    @Test func aClassOrAnExistentialOnlyClassesConformToIsKeptAsItIs() {
        #expect(isReference(RepresentedBase.self))
        #expect(isReference(RepresentedSub.self))
        #expect(isReference(AnyObject.self), "what the compiler's _canBeClass answers for AnyObject")
        #expect(isReference((AnyObject & Sendable).self))
    }

    @Test func anyOtherValueIsBoxed() {
        #expect(!isReference(Int.self))
        #expect(!isReference(String.self))
        #expect(!isReference(RepresentedBase?.self))
        #expect(!isReference(OneReference.self), "one reference in a struct is a value")
        #expect(!isReference((any ClassBoundService).self), "a class-bound existential with a witness table")
        #expect(!isReference(Any.self))
        #expect(!isReference(AnyObject.Type.self))
    }

    @Test func anAnyObjectSingletonIsOneObjectWhereverItIsRead() {
        // Compared as `ObjectIdentifier`s: `===` on `AnyObject` inside `#expect` crashes the 6.3
        // compiler.
        let app = RepresentationAssembly()
        let first = ObjectIdentifier(app.anyObject)
        #expect(ObjectIdentifier(app.anyObject) == first)
        let pair = app.pair
        #expect(ObjectIdentifier(pair.0) == first)
        #expect(ObjectIdentifier(pair.1) == first)
        #expect(ObjectIdentifier(app.service) == ObjectIdentifier(app.service))
    }
}
