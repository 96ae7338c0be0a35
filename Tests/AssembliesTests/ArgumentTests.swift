import Assemblies
import Foundation
import Testing

// Runtime arguments: `define(arguments: a, b) { ... }` makes the argument values part of the key.

private final class ArgBadge {
    let name: String
    init(name: String) { self.name = name }
}

private final class ArgLevel {
    let level: Int?
    init(level: Int?) { self.level = level }
}

private final class ArgCaption {
    let text: String
    let badge: ArgBadge
    init(text: String, badge: ArgBadge) {
        self.text = text
        self.badge = badge
    }
}

private final class ArgParty {
    let leader: ArgBadge
    let members: [ArgBadge]
    let caption: ArgCaption
    init(leader: ArgBadge, members: [ArgBadge], caption: ArgCaption) {
        self.leader = leader
        self.members = members
        self.caption = caption
    }
}

private final class ArgCard {
    let id: Int
    init(id: Int) { self.id = id }
}

/// An argument that is an object: equal when its `id` is.
private final class ArgToken: Hashable {
    let id: Int
    init(id: Int) { self.id = id }
    static func == (left: ArgToken, right: ArgToken) -> Bool { left.id == right.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

private enum ArgColor: Hashable {
    case red
    case blue
}

private struct ArgPoint: Hashable {
    var x: Int
    var y: Int
}

private final class ArgAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var formatting: ArgFormattingAssembly { collaborator() }

    func badge(named name: String) -> ArgBadge {
        define(arguments: name) {
            counter.tick()
            return ArgBadge(name: name)
        }
    }

    var threeBadges: (ArgBadge, ArgBadge, ArgBadge) {
        define { (self.badge(named: "Lancelot"), self.badge(named: "Lancelot"), self.badge(named: "Galahad")) }
    }

    func emblem(named name: String) -> ArgBadge {
        define(scope: .singleton, arguments: name) {
            counter.tick()
            return ArgBadge(name: name)
        }
    }

    func ration(named name: String) -> ArgBadge {
        define(scope: .prototype, arguments: name) {
            counter.tick()
            return ArgBadge(name: name)
        }
    }

    var twoRations: (ArgBadge, ArgBadge) { define { (self.ration(named: "bread"), self.ration(named: "bread")) } }

    // MARK: nil is a value

    func level(_ level: Int?) -> ArgLevel {
        define(arguments: level) {
            counter.tick()
            return ArgLevel(level: level)
        }
    }

    var levels: (ArgLevel, ArgLevel, ArgLevel) { define { (self.level(nil), self.level(0), self.level(nil)) } }

    func singletonLevel(_ level: Int?) -> ArgLevel {
        define(scope: .singleton, arguments: level) {
            counter.tick()
            return ArgLevel(level: level)
        }
    }

    // MARK: Zero to several arguments of different types

    var plain: ArgBadge { define { ArgBadge(name: "plain") } }

    func one(_ name: String) -> ArgBadge { define(arguments: name) { ArgBadge(name: name) } }

    func two(_ name: String, _ count: Int) -> ArgBadge {
        define(arguments: name, count) { ArgBadge(name: "\(name) \(count)") }
    }

    func four(_ name: String, _ level: Int?, _ color: ArgColor, _ point: ArgPoint) -> ArgBadge {
        define(arguments: name, level, color, point) {
            counter.tick()
            return ArgBadge(name: "\(name) \(String(describing: level)) \(color) \(point)")
        }
    }

    func pair(_ first: Int, _ second: Int) -> ArgBadge {
        define(arguments: first, second) { ArgBadge(name: "\(first),\(second)") }
    }

    var mixed: [ArgBadge] {
        define {
            [
                self.plain, self.plain,
                self.one("a"), self.one("a"), self.one("b"),
                self.two("a", 1), self.two("a", 1), self.two("a", 2), self.two("b", 1),
                self.pair(1, 2), self.pair(2, 1),
            ]
        }
    }

    var fours: [ArgBadge] {
        define {
            [
                self.four("x", 1, .red, ArgPoint(x: 0, y: 0)),
                self.four("x", 1, .red, ArgPoint(x: 0, y: 0)),
                self.four("y", 1, .red, ArgPoint(x: 0, y: 0)),
                self.four("x", nil, .red, ArgPoint(x: 0, y: 0)),
                self.four("x", 1, .blue, ArgPoint(x: 0, y: 0)),
                self.four("x", 1, .red, ArgPoint(x: 0, y: 1)),
            ]
        }
    }

    // MARK: Passing arguments on

    func member(_ index: Int, of leader: String) -> ArgBadge {
        define(arguments: index, leader) { ArgBadge(name: "\(leader)'s #\(index)") }
    }

    func party(ledBy leader: String, size: Int) -> ArgParty {
        define(arguments: leader, size) {
            counter.tick()
            return ArgParty(
                leader: self.badge(named: leader),
                members: (0..<size).map { self.member($0, of: leader) },
                caption: self.formatting.caption(for: leader, size: size)
            )
        }
    }

    var partyAndItsParts: (ArgParty, ArgBadge, ArgCaption, ArgBadge) {
        define {
            (
                self.party(ledBy: "Arthur", size: 3),
                self.badge(named: "Arthur"),
                self.formatting.caption(for: "Arthur", size: 3),
                self.member(1, of: "Arthur")
            )
        }
    }

    // MARK: Object arguments

    func card(for token: ArgToken) -> ArgCard {
        define(arguments: token) {
            counter.tick()
            return ArgCard(id: token.id)
        }
    }

    func keeper(for token: ArgToken) -> ArgCard {
        define(scope: .singleton, arguments: token) {
            counter.tick()
            return ArgCard(id: token.id)
        }
    }

    // MARK: Explicit keys

    func seal(for name: String) -> ArgBadge {
        define(withKey: "arg-seal", arguments: name) { ArgBadge(name: "root \(name)") }
    }

    var seals: (ArgBadge, ArgBadge, ArgBadge, ArgBadge) {
        define {
            (self.seal(for: "x"), self.formatting.seal(for: "x"), self.formatting.seal(for: "y"), self.seal(for: "y"))
        }
    }

    func crest(for name: String) -> ArgBadge {
        define(withKey: "arg-crest", scope: .singleton, arguments: name) { ArgBadge(name: "root \(name)") }
    }
}

private final class ArgFormattingAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var app: ArgAssembly { collaborator() }

    func caption(for name: String, size: Int) -> ArgCaption {
        define(arguments: name, size) {
            counter.tick()
            return ArgCaption(text: "\(name) and \(size)", badge: self.app.badge(named: name))
        }
    }

    func seal(for name: String) -> ArgBadge {
        define(withKey: "arg-seal", arguments: name) { ArgBadge(name: "formatting \(name)") }
    }

    func crest(for name: String) -> ArgBadge {
        define(withKey: "arg-crest", scope: .singleton, arguments: name) { ArgBadge(name: "formatting \(name)") }
    }
}

/// A method with parameters that forgot `arguments:`.
private final class ArgMisuseAssembly: Assembly, @unchecked Sendable {
    func label(_ text: String) -> ArgBadge { define { ArgBadge(name: text) } }
    var twoLabels: (ArgBadge, ArgBadge) { define { (self.label("a"), self.label("b")) } }
}

private final class ArgIdentities: @unchecked Sendable {
    // @unchecked: `storage` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storage: [Int: Set<ObjectIdentifier>] = [:]
    func insert(_ object: AnyObject, for key: Int) {
        lock.withLock { _ = storage[key, default: []].insert(ObjectIdentifier(object)) }
    }
    var values: [Int: Set<ObjectIdentifier>] { lock.withLock { storage } }
}

/// Reads a card for a token that nothing outside keeps, and hands back a weak reference to the token.
private func cardForTemporaryToken(in assembly: ArgAssembly, id: Int) -> (card: ArgCard, token: () -> ArgToken?) {
    let token = ArgToken(id: id)
    return (assembly.card(for: token), { [weak token] in token })
}

/// One definition site whose argument's type varies: `AnyHashable(1) == AnyHashable(1.0)`.
private final class ArgLabelAssembly: Assembly, @unchecked Sendable {
    func label<Value: Hashable>(_ value: Value) -> ArgBadge {
        define(scope: .singleton, arguments: value) { ArgBadge(name: "\(Value.self) \(value)") }
    }

    func label(_ value: Int) -> ArgBadge {
        define(scope: .singleton, arguments: value) { ArgBadge(name: "Int \(value)") }
    }

    func label(_ value: Double) -> ArgBadge {
        define(scope: .singleton, arguments: value) { ArgBadge(name: "Double \(value)") }
    }
}

@Suite struct ArgumentTests {
    @Test func equalArgumentsShareOneInstanceInAGraphAndDifferentOnesDoNot() {
        let assembly = ArgAssembly()
        let (first, second, other) = assembly.threeBadges
        #expect(first === second)
        #expect(first !== other)
        #expect(first.name == "Lancelot")
        #expect(other.name == "Galahad")
        #expect(assembly.counter["badge(named:)"] == 2)
    }

    @Test func aNewGraphBuildsNewInstances() {
        let assembly = ArgAssembly()
        let first = assembly.badge(named: "Lancelot")
        let second = assembly.badge(named: "Lancelot")
        #expect(first !== second)
        #expect(second.name == "Lancelot")
        #expect(assembly.counter["badge(named:)"] == 2)
        let (again, _, _) = assembly.threeBadges
        #expect(again !== first && again !== second)
    }

    @Test func aPrototypeWithArgumentsIsNewOnEveryRead() {
        let assembly = ArgAssembly()
        let (first, second) = assembly.twoRations
        #expect(first !== second)
        #expect(first.name == "bread")
        #expect(assembly.counter["ration(named:)"] == 2)
    }

    @Test func aSingletonIsOneInstancePerArgumentValue() {
        let assembly = ArgAssembly()
        let lancelot = assembly.emblem(named: "Lancelot")
        let galahad = assembly.emblem(named: "Galahad")
        #expect(assembly.emblem(named: "Lancelot") === lancelot)
        #expect(assembly.emblem(named: "Galahad") === galahad)
        #expect(lancelot !== galahad)
        #expect(lancelot.name == "Lancelot")
        #expect(assembly.counter["emblem(named:)"] == 2)
        let otherFamily = ArgAssembly()
        #expect(otherFamily.emblem(named: "Lancelot") !== lancelot)
    }

    @Test func aSingletonPerArgumentIsBuiltOnceAcrossThreads() {
        let assembly = ArgAssembly()
        let seen = ArgIdentities()
        onThreads(8) { thread in
            for read in 0..<200 {
                let name = (thread + read).isMultiple(of: 2) ? "even" : "odd"
                let emblem = assembly.emblem(named: name)
                seen.insert(emblem, for: name == "even" ? 0 : 1)
            }
        }
        #expect(seen.values[0]?.count == 1)
        #expect(seen.values[1]?.count == 1)
        #expect(seen.values[0] != seen.values[1])
        #expect(assembly.counter["emblem(named:)"] == 2)
    }

    @Test func nilIsAnArgumentValueLikeAnyOther() {
        let assembly = ArgAssembly()
        let (firstNil, zero, secondNil) = assembly.levels
        #expect(firstNil === secondNil)
        #expect(firstNil !== zero)
        #expect(firstNil.level == nil)
        #expect(zero.level == 0)
        #expect(assembly.counter["level(_:)"] == 2)

        let singletonNil = assembly.singletonLevel(nil)
        let singletonZero = assembly.singletonLevel(0)
        #expect(assembly.singletonLevel(nil) === singletonNil)
        #expect(assembly.singletonLevel(0) === singletonZero)
        #expect(singletonNil !== singletonZero)
        #expect(singletonNil.level == nil)
        #expect(singletonZero.level == 0)
        #expect(assembly.counter["singletonLevel(_:)"] == 2)
    }

    @Test func zeroToSeveralArgumentsOfDifferentTypes() {
        let badges = ArgAssembly().mixed
        #expect(badges[0] === badges[1])
        #expect(badges[2] === badges[3])
        #expect(badges[2] !== badges[4])
        #expect(badges[5] === badges[6])
        #expect(badges[5] !== badges[7])
        #expect(badges[5] !== badges[8])
        #expect(badges[7] !== badges[8])
        #expect(badges[9] !== badges[10], "the order of the arguments is part of the key")
        #expect(badges.map(\.name) == ["plain", "plain", "a", "a", "b", "a 1", "a 1", "a 2", "b 1", "1,2", "2,1"])
    }

    @Test func everyArgumentOfSeveralIsPartOfTheKey() {
        let assembly = ArgAssembly()
        let badges = assembly.fours
        #expect(badges[0] === badges[1])
        for index in 2..<badges.count {
            #expect(badges[index] !== badges[0], "badge \(index) differs in one argument")
        }
        #expect(Set(badges.map(ObjectIdentifier.init)).count == 5)
        #expect(assembly.counter["four(_:_:_:_:)"] == 5)
    }

    @Test func argumentsArePassedOnToNestedDefinitionsAndCollaborators() {
        let assembly = ArgAssembly()
        let (party, leader, caption, member) = assembly.partyAndItsParts
        #expect(party.leader === leader)
        #expect(party.caption === caption)
        #expect(party.members.count == 3)
        #expect(party.members[1] === member)
        #expect(party.members.map(\.name) == ["Arthur's #0", "Arthur's #1", "Arthur's #2"])
        #expect(caption.text == "Arthur and 3")
        #expect(caption.badge === leader, "the collaborator read the root's badge with the same argument")
        #expect(assembly.counter["party(ledBy:size:)"] == 1)
        #expect(assembly.counter["badge(named:)"] == 1)
        #expect(assembly.formatting.counter["caption(for:size:)"] == 1)

        let otherParty = assembly.party(ledBy: "Mordred", size: 1)
        #expect(otherParty.leader.name == "Mordred")
        #expect(otherParty.caption.badge === otherParty.leader)
        #expect(otherParty.leader !== leader)
    }

    @Test func aGraphKeepsNoArgumentObjectAfterItCloses() {
        let assembly = ArgAssembly()
        let (card, token) = cardForTemporaryToken(in: assembly, id: 7)
        #expect(card.id == 7)
        #expect(token() == nil, "the argument must be released once the graph has closed")
        let (secondCard, secondToken) = cardForTemporaryToken(in: assembly, id: 7)
        #expect(secondCard !== card)
        #expect(secondToken() == nil)
        #expect(assembly.counter["card(for:)"] == 2)
    }

    @Test func aSingletonPerArgumentObjectKeepsItsKey() {
        let assembly = ArgAssembly()
        let first = assembly.keeper(for: ArgToken(id: 3))
        let again = assembly.keeper(for: ArgToken(id: 3))
        let other = assembly.keeper(for: ArgToken(id: 4))
        #expect(again === first, "an equal argument finds the singleton built for the first one")
        #expect(other !== first)
        #expect(first.id == 3)
        #expect(other.id == 4)
        #expect(assembly.counter["keeper(for:)"] == 2)
    }

    @Test func anExplicitKeyWithArgumentsIsSharedByTheFamily() {
        let assembly = ArgAssembly()
        let (rootX, formattingX, formattingY, rootY) = assembly.seals
        #expect(rootX === formattingX)
        #expect(formattingY === rootY)
        #expect(rootX !== rootY)
        #expect(rootX.name == "root x")
        #expect(formattingY.name == "formatting y")

        let crest = assembly.formatting.crest(for: "x")
        #expect(assembly.crest(for: "x") === crest)
        #expect(assembly.crest(for: "y") !== crest)
        #expect(crest.name == "formatting x")
    }

    @Test func aMethodWithParametersWithoutArgumentsReadTwiceStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ArgMisuseAssembly().twoLabels
        }
        let message = stderr(of: result)
        #expect(message.contains("ArgMisuseAssembly.label(_:) was read twice in one object graph"))
        #expect(message.contains("it is a method with parameters"))
        #expect(message.contains("`define(arguments:"))
    }

    @Test func argumentsOfDifferentTypesThatCompareEqualNameDifferentInstances() {
        let assembly = ArgLabelAssembly()
        #expect(assembly.label(1).name == "Int 1")
        #expect(assembly.label(1.0).name == "Double 1.0")
        #expect(assembly.label(1 as Int8).name == "Int8 1")
        #expect(assembly.label(1 as UInt).name == "UInt 1")
        #expect(assembly.label(1 as Int8) !== assembly.label(1 as UInt))
        #expect(assembly.label(Optional<Int>.none).name == "Optional<Int> nil")
        #expect(assembly.label(Optional<String>.none).name == "Optional<String> nil")
        #expect(assembly.label(1 as Int8) === assembly.label(1 as Int8))
    }
}

// A finite recursion through a prototype method with arguments — a menu tree, where one title can
// appear in several branches — is a tree of new definitions, never a cycle.

private final class MenuNode {
    let title: String
    let children: [MenuNode]
    init(title: String, children: [MenuNode]) {
        self.title = title
        self.children = children
    }
}

private final class MenuAssembly: Assembly, @unchecked Sendable {
    static let tree = ["root": ["File", "Edit"], "File": ["Open", "Recent"], "Recent": ["Open"], "Edit": ["Open"]]

    func menu(_ title: String) -> MenuNode {
        define(scope: .prototype, arguments: title) {
            MenuNode(title: title, children: (Self.tree[title] ?? []).map { self.menu($0) })
        }
    }

    func level(_ depth: Int) -> MenuNode {
        define(scope: .prototype, arguments: depth) {
            MenuNode(title: "\(depth)", children: depth == 0 ? [] : [self.level(depth - 1)])
        }
    }
}

@Suite struct RecursiveMethodTests {
    @Test func aMenuTreeIsBuiltWhole() {
        let root = MenuAssembly().menu("root")
        #expect(root.children.map(\.title) == ["File", "Edit"])
        #expect(root.children[0].children[1].children.map(\.title) == ["Open"])
        #expect(root.children[1].children[0] !== root.children[0].children[0], "a prototype: one per read")
    }

    @Test func aDeepFiniteRecursionPassesEveryCycleCheck() {
        // Deeper than the first prototype-cycle checks (at 8, 16, ... frames).
        var node = MenuAssembly().level(300)
        var depth = 0
        while let child = node.children.first {
            node = child
            depth += 1
        }
        #expect(depth == 300)
    }
}
