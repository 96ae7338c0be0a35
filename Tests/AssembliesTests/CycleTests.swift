import Assemblies
import Testing

private final class Node {
    let name: String
    var next: Node?
    var other: Node?
    init(name: String) { self.name = name }
}

private final class RingAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var a: Node { node("a") { self.b } }
    var b: Node { node("b") { self.c } }
    var c: Node { node("c") { self.a } }

    var selfish: Node {
        define { definition in
            let node = definition *~> Node(name: "selfish")
            node.next = self.selfish
            return node
        }
    }

    var lonely: Node {
        define(scope: .singleton) { definition in
            counter.tick()
            let node = definition *~> Node(name: "lonely")
            node.next = self.intentionallyCaptive(self.companion)  // the cycle's other half, kept on purpose
            return node
        }
    }

    var companion: Node {
        define { definition in
            counter.tick()
            let node = definition *~> Node(name: "companion")
            node.next = self.lonely
            return node
        }
    }

    private func node(_ name: String, function: StaticString = #function, next: @escaping () -> Node) -> Node {
        define(function: function) { definition in
            counter.tick(name)
            let node = definition *~> Node(name: name)
            node.next = next()
            return node
        }
    }
}

// Typhoon's presenter/view pair and kings: prototypes in a cycle.

private final class View {
    var presenter: Presenter?
}

private final class Presenter {
    var view: View?
    var other: View?
}

private final class King {
    var guardian: Guardian?
}

private final class Guardian {
    var king: King?
}

private final class Kingdom {
    var first: King?
    var second: King?
}

private final class ScreensAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var view: View {
        define(scope: .prototype) { definition in
            counter.tick()
            let view = definition *~> View()
            view.presenter = self.presenter
            return view
        }
    }

    var presenter: Presenter {
        define(scope: .prototype) { definition in
            let presenter = definition *~> Presenter()
            presenter.view = self.view
            return presenter
        }
    }

    var king: King {
        define(scope: .prototype) { definition in
            let king = definition *~> King()
            king.guardian = self.guardian
            return king
        }
    }

    var guardian: Guardian {
        define(scope: .prototype) { definition in
            let guardian = definition *~> Guardian()
            guardian.king = self.king
            return guardian
        }
    }

    var kingdom: Kingdom {
        define { definition in
            let kingdom = definition *~> Kingdom()
            kingdom.first = self.king
            kingdom.second = self.king
            return kingdom
        }
    }

    /// A prototype reached again through a shared definition, not straight back: a new instance.
    var sharedPresenter: Presenter {
        define { definition in
            let presenter = definition *~> Presenter()
            presenter.view = self.viewOfSharedPresenter
            presenter.other = self.viewOfSharedPresenter
            return presenter
        }
    }

    var viewOfSharedPresenter: View {
        define(scope: .prototype) { definition in
            let view = definition *~> View()
            view.presenter = self.sharedPresenter
            return view
        }
    }
}

@Suite struct CycleTests {
    @Test func aPropertyCycleAcrossAssembliesResolvesToOneGraph() {
        let assembly = KnightsAssembly()
        let knight = assembly.knight
        #expect(knight.quest?.knight === knight)
        #expect(assembly.counter["knight"] == 1)
        #expect(assembly.quests.counter["quest"] == 1)
    }

    @Test func aCycleEnteredFromTheOtherSideAlsoCloses() {
        let assembly = KnightsAssembly()
        let quest = assembly.quests.quest
        #expect(quest.knight?.quest === quest)
    }

    @Test func aLongerCycleBuildsEachObjectOnce() {
        let assembly = RingAssembly()
        let a = assembly.a
        #expect(a.next?.next?.next === a)
        #expect(a.next?.name == "b")
        #expect(a.next?.next?.name == "c")
        #expect(assembly.counter["a"] == 1)
        #expect(assembly.counter["b"] == 1)
        #expect(assembly.counter["c"] == 1)
    }

    @Test func aDefinitionMayPointAtItselfOnceRegistered() {
        let node = RingAssembly().selfish
        #expect(node.next === node)
    }

    @Test func aCycleThroughASingletonResolvesAndTheSingletonStaysWiredToIt() {
        let assembly = RingAssembly()
        let lonely = assembly.lonely
        #expect(lonely.next?.next === lonely)
        #expect(assembly.lonely === lonely)
        #expect(assembly.companion.next === lonely)
        #expect(assembly.counter["lonely"] == 1)
    }

    @Test func aPrototypeBackReferenceGetsTheInstanceBeingWired() {
        let assembly = ScreensAssembly()
        let view = assembly.view
        #expect(view.presenter?.view === view)
        #expect(assembly.counter["view"] == 1)
    }

    @Test func everyOtherReadOfAPrototypeBuildsANewInstance() {
        let kingdom = ScreensAssembly().kingdom
        let first = kingdom.first
        let second = kingdom.second
        #expect(first !== second)
        #expect(first?.guardian !== second?.guardian)
        #expect(first?.guardian?.king === first)
        #expect(second?.guardian?.king === second)
    }

    @Test func aPrototypeReachedThroughASharedDefinitionIsNew() {
        let presenter = ScreensAssembly().sharedPresenter
        #expect(presenter.view !== presenter.other)
        #expect(presenter.view?.presenter === presenter)
        #expect(presenter.other?.presenter === presenter)
    }
}
