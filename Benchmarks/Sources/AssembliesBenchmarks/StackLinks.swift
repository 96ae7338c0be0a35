// Stack bytes per nesting level: how much of a thread's stack each level of a deep graph uses.
//
// A chain of 32 definitions, each read from the body of the one before it; the innermost body
// records the stack pointer. Reading the chain from its first link and from its 17th, the
// difference between the two innermost addresses, divided by 16, is the stack one level takes.
// Hand-written wiring does the same through functions that are not inlined. `--stack` prints it.
// swift-format-ignore-file

import Assemblies

/// A link of the stack-depth chains.
final class Link {
    let next: Link?
    init(_ next: Link?) { self.next = next }
}

/// The stack address the innermost body of a chain saw.
nonisolated(unsafe) var innermostStackAddress: UInt = 0

/// An address in the caller's stack frame.
@inline(never)
func currentStackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

enum StackDepth {
    /// The lines `--stack` prints, and the full run after its table.
    static func report() -> String {
        #if DEBUG
        let title = "Stack bytes per nesting level (debug build):"
        #else
        let title =
            "Stack bytes per nesting level (release build; `swift run --package-path Benchmarks "
            + "AssembliesBenchmarks --stack` for a debug build):"
        #endif
        let rows = bytesPerLevel().map { "  \($0.name.padding(toLength: 36, withPad: " ", startingAt: 0)) \($0.bytes) B" }
        return ([title] + rows).joined(separator: "\n")
    }

    /// Stack bytes per nesting level of each chain, in the configuration this program was built in.
    static func bytesPerLevel() -> [(name: String, bytes: Int)] {
        func perLevel(_ whole: () -> Link, _ half: () -> Link) -> Int {
            blackHole(whole())
            let deep = innermostStackAddress
            blackHole(half())
            let shallow = innermostStackAddress
            return Int(shallow - deep) / 16
        }
        return [
            ("hand-written", perLevel({ HandWrittenLinks.link0() }, { HandWrittenLinks.link16() })),
            ("Assemblies .objectGraph", perLevel({ ObjectGraphLinksAssembly().link0 }, { ObjectGraphLinksAssembly().link16 })),
            ("Assemblies .prototype", perLevel({ PrototypeLinksAssembly().link0 }, { PrototypeLinksAssembly().link16 })),
            ("Assemblies .singleton, first read", perLevel({ SingletonLinksAssembly().link0 }, { SingletonLinksAssembly().link16 })),
        ]
    }
}

// MARK: Hand-written

enum HandWrittenLinks {
    @inline(never) static func link0() -> Link { Link(link1()) }
    @inline(never) static func link1() -> Link { Link(link2()) }
    @inline(never) static func link2() -> Link { Link(link3()) }
    @inline(never) static func link3() -> Link { Link(link4()) }
    @inline(never) static func link4() -> Link { Link(link5()) }
    @inline(never) static func link5() -> Link { Link(link6()) }
    @inline(never) static func link6() -> Link { Link(link7()) }
    @inline(never) static func link7() -> Link { Link(link8()) }
    @inline(never) static func link8() -> Link { Link(link9()) }
    @inline(never) static func link9() -> Link { Link(link10()) }
    @inline(never) static func link10() -> Link { Link(link11()) }
    @inline(never) static func link11() -> Link { Link(link12()) }
    @inline(never) static func link12() -> Link { Link(link13()) }
    @inline(never) static func link13() -> Link { Link(link14()) }
    @inline(never) static func link14() -> Link { Link(link15()) }
    @inline(never) static func link15() -> Link { Link(link16()) }
    @inline(never) static func link16() -> Link { Link(link17()) }
    @inline(never) static func link17() -> Link { Link(link18()) }
    @inline(never) static func link18() -> Link { Link(link19()) }
    @inline(never) static func link19() -> Link { Link(link20()) }
    @inline(never) static func link20() -> Link { Link(link21()) }
    @inline(never) static func link21() -> Link { Link(link22()) }
    @inline(never) static func link22() -> Link { Link(link23()) }
    @inline(never) static func link23() -> Link { Link(link24()) }
    @inline(never) static func link24() -> Link { Link(link25()) }
    @inline(never) static func link25() -> Link { Link(link26()) }
    @inline(never) static func link26() -> Link { Link(link27()) }
    @inline(never) static func link27() -> Link { Link(link28()) }
    @inline(never) static func link28() -> Link { Link(link29()) }
    @inline(never) static func link29() -> Link { Link(link30()) }
    @inline(never) static func link30() -> Link { Link(link31()) }
    @inline(never) static func link31() -> Link { innermostStackAddress = currentStackAddress(); return Link(nil) }
}

// MARK: Assemblies, .objectGraph

final class ObjectGraphLinksAssembly: Assembly, @unchecked Sendable {
    var link0: Link { define(scope: .objectGraph) { Link(self.link1) } }
    var link1: Link { define(scope: .objectGraph) { Link(self.link2) } }
    var link2: Link { define(scope: .objectGraph) { Link(self.link3) } }
    var link3: Link { define(scope: .objectGraph) { Link(self.link4) } }
    var link4: Link { define(scope: .objectGraph) { Link(self.link5) } }
    var link5: Link { define(scope: .objectGraph) { Link(self.link6) } }
    var link6: Link { define(scope: .objectGraph) { Link(self.link7) } }
    var link7: Link { define(scope: .objectGraph) { Link(self.link8) } }
    var link8: Link { define(scope: .objectGraph) { Link(self.link9) } }
    var link9: Link { define(scope: .objectGraph) { Link(self.link10) } }
    var link10: Link { define(scope: .objectGraph) { Link(self.link11) } }
    var link11: Link { define(scope: .objectGraph) { Link(self.link12) } }
    var link12: Link { define(scope: .objectGraph) { Link(self.link13) } }
    var link13: Link { define(scope: .objectGraph) { Link(self.link14) } }
    var link14: Link { define(scope: .objectGraph) { Link(self.link15) } }
    var link15: Link { define(scope: .objectGraph) { Link(self.link16) } }
    var link16: Link { define(scope: .objectGraph) { Link(self.link17) } }
    var link17: Link { define(scope: .objectGraph) { Link(self.link18) } }
    var link18: Link { define(scope: .objectGraph) { Link(self.link19) } }
    var link19: Link { define(scope: .objectGraph) { Link(self.link20) } }
    var link20: Link { define(scope: .objectGraph) { Link(self.link21) } }
    var link21: Link { define(scope: .objectGraph) { Link(self.link22) } }
    var link22: Link { define(scope: .objectGraph) { Link(self.link23) } }
    var link23: Link { define(scope: .objectGraph) { Link(self.link24) } }
    var link24: Link { define(scope: .objectGraph) { Link(self.link25) } }
    var link25: Link { define(scope: .objectGraph) { Link(self.link26) } }
    var link26: Link { define(scope: .objectGraph) { Link(self.link27) } }
    var link27: Link { define(scope: .objectGraph) { Link(self.link28) } }
    var link28: Link { define(scope: .objectGraph) { Link(self.link29) } }
    var link29: Link { define(scope: .objectGraph) { Link(self.link30) } }
    var link30: Link { define(scope: .objectGraph) { Link(self.link31) } }
    var link31: Link { define(scope: .objectGraph) { { innermostStackAddress = currentStackAddress(); return Link(nil) }() } }
}

// MARK: Assemblies, .prototype

final class PrototypeLinksAssembly: Assembly, @unchecked Sendable {
    var link0: Link { define(scope: .prototype) { Link(self.link1) } }
    var link1: Link { define(scope: .prototype) { Link(self.link2) } }
    var link2: Link { define(scope: .prototype) { Link(self.link3) } }
    var link3: Link { define(scope: .prototype) { Link(self.link4) } }
    var link4: Link { define(scope: .prototype) { Link(self.link5) } }
    var link5: Link { define(scope: .prototype) { Link(self.link6) } }
    var link6: Link { define(scope: .prototype) { Link(self.link7) } }
    var link7: Link { define(scope: .prototype) { Link(self.link8) } }
    var link8: Link { define(scope: .prototype) { Link(self.link9) } }
    var link9: Link { define(scope: .prototype) { Link(self.link10) } }
    var link10: Link { define(scope: .prototype) { Link(self.link11) } }
    var link11: Link { define(scope: .prototype) { Link(self.link12) } }
    var link12: Link { define(scope: .prototype) { Link(self.link13) } }
    var link13: Link { define(scope: .prototype) { Link(self.link14) } }
    var link14: Link { define(scope: .prototype) { Link(self.link15) } }
    var link15: Link { define(scope: .prototype) { Link(self.link16) } }
    var link16: Link { define(scope: .prototype) { Link(self.link17) } }
    var link17: Link { define(scope: .prototype) { Link(self.link18) } }
    var link18: Link { define(scope: .prototype) { Link(self.link19) } }
    var link19: Link { define(scope: .prototype) { Link(self.link20) } }
    var link20: Link { define(scope: .prototype) { Link(self.link21) } }
    var link21: Link { define(scope: .prototype) { Link(self.link22) } }
    var link22: Link { define(scope: .prototype) { Link(self.link23) } }
    var link23: Link { define(scope: .prototype) { Link(self.link24) } }
    var link24: Link { define(scope: .prototype) { Link(self.link25) } }
    var link25: Link { define(scope: .prototype) { Link(self.link26) } }
    var link26: Link { define(scope: .prototype) { Link(self.link27) } }
    var link27: Link { define(scope: .prototype) { Link(self.link28) } }
    var link28: Link { define(scope: .prototype) { Link(self.link29) } }
    var link29: Link { define(scope: .prototype) { Link(self.link30) } }
    var link30: Link { define(scope: .prototype) { Link(self.link31) } }
    var link31: Link { define(scope: .prototype) { { innermostStackAddress = currentStackAddress(); return Link(nil) }() } }
}

// MARK: Assemblies, .singleton

final class SingletonLinksAssembly: Assembly, @unchecked Sendable {
    var link0: Link { define(scope: .singleton) { Link(self.link1) } }
    var link1: Link { define(scope: .singleton) { Link(self.link2) } }
    var link2: Link { define(scope: .singleton) { Link(self.link3) } }
    var link3: Link { define(scope: .singleton) { Link(self.link4) } }
    var link4: Link { define(scope: .singleton) { Link(self.link5) } }
    var link5: Link { define(scope: .singleton) { Link(self.link6) } }
    var link6: Link { define(scope: .singleton) { Link(self.link7) } }
    var link7: Link { define(scope: .singleton) { Link(self.link8) } }
    var link8: Link { define(scope: .singleton) { Link(self.link9) } }
    var link9: Link { define(scope: .singleton) { Link(self.link10) } }
    var link10: Link { define(scope: .singleton) { Link(self.link11) } }
    var link11: Link { define(scope: .singleton) { Link(self.link12) } }
    var link12: Link { define(scope: .singleton) { Link(self.link13) } }
    var link13: Link { define(scope: .singleton) { Link(self.link14) } }
    var link14: Link { define(scope: .singleton) { Link(self.link15) } }
    var link15: Link { define(scope: .singleton) { Link(self.link16) } }
    var link16: Link { define(scope: .singleton) { Link(self.link17) } }
    var link17: Link { define(scope: .singleton) { Link(self.link18) } }
    var link18: Link { define(scope: .singleton) { Link(self.link19) } }
    var link19: Link { define(scope: .singleton) { Link(self.link20) } }
    var link20: Link { define(scope: .singleton) { Link(self.link21) } }
    var link21: Link { define(scope: .singleton) { Link(self.link22) } }
    var link22: Link { define(scope: .singleton) { Link(self.link23) } }
    var link23: Link { define(scope: .singleton) { Link(self.link24) } }
    var link24: Link { define(scope: .singleton) { Link(self.link25) } }
    var link25: Link { define(scope: .singleton) { Link(self.link26) } }
    var link26: Link { define(scope: .singleton) { Link(self.link27) } }
    var link27: Link { define(scope: .singleton) { Link(self.link28) } }
    var link28: Link { define(scope: .singleton) { Link(self.link29) } }
    var link29: Link { define(scope: .singleton) { Link(self.link30) } }
    var link30: Link { define(scope: .singleton) { Link(self.link31) } }
    var link31: Link { define(scope: .singleton) { { innermostStackAddress = currentStackAddress(); return Link(nil) }() } }
}
