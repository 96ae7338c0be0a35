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

/// Which instances the engine keeps as they are and which it boxes (``isReference(_:)``): a type
/// whose metatype is a class's, of one word, is kept as it is — the same dynamic cast wherever it is
/// asked, specialized or not, so that a definition read by both kinds of code keeps one
/// representation. Anything else is boxed, `AnyObject` itself included (an existential's metatype
/// is no class's), and so are blocks and C++ reference types, whose references Swift's own retain
/// must not touch.
@Suite struct InstanceRepresentationTests {
    @Test func aClassIsKeptAsItIs() {
        #expect(isReference(RepresentedBase.self))
        #expect(isReference(RepresentedSub.self))
    }

    @Test func anyOtherValueIsBoxed() {
        #expect(!isReference(AnyObject.self), "an existential")
        #expect(!isReference((AnyObject & Sendable).self))
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
