// The README's Quick Start, block by block: `.ci/run readme` checks that each of its swift blocks
// appears here, line for line. The first opens the file, its `import Assemblies` included.
import Assemblies

final class Logger: Sendable {}

final class Mailer: Sendable {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}

final class MailAssembly: Assembly, @unchecked Sendable {
    var logger: Logger { define { Logger() } }
    var mailer: Mailer { define { Mailer(logger: self.logger) } }
}

let mailer = MailAssembly().mailer  // a Mailer, built with its Logger

final class AppAssembly: Assembly, @unchecked Sendable {
    var logger: Logger { define(scope: .singleton) { Logger() } }  // one for the whole app
    var mailer: Mailer { define { Mailer(logger: self.logger) } }  // a new one on each read
}

let app = AppAssembly()
let sharesTheLogger = app.mailer.logger === app.mailer.logger  // true: two mailers, one logger

final class Roastery {}

final class Cup {}

final class Barista {
    let roastery: Roastery
    weak var cafe: Cafe?  // the cafe she works at: a back-reference

    init(roastery: Roastery) {
        self.roastery = roastery
    }
}

final class Cafe {
    var barista: Barista?
    var cups: [Cup] = []
}

final class CafeAssembly: Assembly, @unchecked Sendable {
    var cafe: Cafe {
        define { definition in
            let cafe = definition *~> Cafe()  // registered first, so the barista can point back
            cafe.barista = self.barista
            cafe.cups = [self.cup, self.cup]
            return cafe
        }
    }

    var barista: Barista {
        define { definition in
            let barista = definition *~> Barista(roastery: self.roastery)
            barista.cafe = self.cafe  // the cafe being wired above: the cycle closes
            return barista
        }
    }

    var cup: Cup { define(scope: .prototype) { Cup() } }  // a new cup on every read

    var roastery: Roastery { define(scope: .singleton) { Roastery() } }  // one for the whole app
}

func openTheCafe() {
    let assembly = CafeAssembly()
    let cafe = assembly.cafe  // one object graph, built and wired

    print(cafe.barista?.cafe === cafe)  // true: the cycle closed on this cafe
    print(cafe.cups[0] === cafe.cups[1])  // false: a prototype is new on every read
    print(cafe.barista?.roastery === assembly.roastery)  // true: one roastery for the whole app
    print(assembly.cafe === cafe)  // false: each read from outside builds a new graph
}

// swift-format-ignore: OrderedImports
// The README's quick start opens this file, its `import Assemblies` included, so this import comes
// after it.
import Testing

/// The README's quick start does what its comments say.
@Suite("README")
struct ReadmeTests {
    @Test func theQuickStartRuns() {
        openTheCafe()
    }

    @Test func oneReadBuildsTheObjectWithItsDependency() {
        let first = MailAssembly().mailer
        #expect(mailer !== first, "each read builds anew")
        #expect(mailer.logger !== first.logger)
    }

    @Test func aSingletonIsSharedByEveryRead() {
        #expect(sharesTheLogger)
        #expect(app.mailer !== app.mailer)
        #expect(AppAssembly().logger !== app.logger, "another root, another singleton")
    }

    @Test func theCycleClosesOnOneCafe() throws {
        let assembly = CafeAssembly()
        let cafe = assembly.cafe
        let barista = try #require(cafe.barista)
        #expect(barista.cafe === cafe)
    }

    @Test func aPrototypeIsNewOnEveryRead() {
        let assembly = CafeAssembly()
        let cafe = assembly.cafe
        #expect(cafe.cups.count == 2)
        #expect(cafe.cups[0] !== cafe.cups[1])
        #expect(assembly.cup !== assembly.cup)
    }

    @Test func theSingletonIsOnePerFamily() {
        let assembly = CafeAssembly()
        let cafe = assembly.cafe
        #expect(cafe.barista?.roastery === assembly.roastery)
        #expect(assembly.cafe.barista?.roastery === assembly.roastery)
        #expect(CafeAssembly().roastery !== assembly.roastery)
    }

    @Test func eachReadFromOutsideBuildsANewGraph() {
        let assembly = CafeAssembly()
        let cafe = assembly.cafe
        let again = assembly.cafe
        #expect(again !== cafe)
        #expect(again.barista !== cafe.barista)
        #expect(again.barista?.cafe === again)
    }
}
