import Assemblies
import Testing

// A value (not a class) registered with `*~>` and read back while its definition is being built:
// the reader gets a copy made at registration. It works, but warns once per chain and family.

private struct Ledger {
    var entries: [String] = []
}
private final class Clerk {
    var ledger: Ledger?
}
private final class ObjectLedger {
    var clerk: Clerk?
}

private final class LedgerAssembly: Assembly, @unchecked Sendable {
    var ledger: Ledger {
        define { definition in
            var ledger = definition *~> Ledger()
            ledger.entries.append("opened by \(self.clerk.ledger?.entries.count ?? -1)")
            return ledger
        }
    }
    var clerk: Clerk {
        define(scope: .prototype) { definition in
            let clerk = definition *~> Clerk()
            clerk.ledger = self.ledger
            return clerk
        }
    }
    var storedLedger: Ledger {
        define(scope: .singleton) { definition in
            var ledger = definition *~> Ledger()
            ledger.entries = ["\(self.storedClerk.ledger?.entries.count ?? -1)"]
            return ledger
        }
    }
    var storedClerk: Clerk {
        define { definition in
            let clerk = definition *~> Clerk()
            clerk.ledger = self.storedLedger
            return clerk
        }
    }
    var objectLedger: ObjectLedger {
        define { definition in
            let ledger = definition *~> ObjectLedger()
            ledger.clerk = self.objectClerk
            return ledger
        }
    }
    var objectClerk: Clerk {
        define(scope: .prototype) {
            _ = self.objectLedger
            return Clerk()
        }
    }
    var protocolLedger: any LedgerProtocol {
        define { definition in
            let ledger = definition *~> ObjectLedger() as any LedgerProtocol
            (ledger as! ObjectLedger).clerk = self.protocolClerk
            return ledger
        }
    }
    var protocolClerk: Clerk {
        define(scope: .prototype) {
            _ = self.protocolLedger
            return Clerk()
        }
    }
}

private protocol LedgerProtocol: AnyObject {}
extension ObjectLedger: LedgerProtocol {}

@Suite struct ValueInCycleTests {
    @Test func theReaderGetsACopyAndAWarning() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            for _ in 0..<3 {
                let app = LedgerAssembly()
                precondition(app.ledger.entries == ["opened by 0"], "the clerk's copy was made before the append")
            }
        }
        let output = stderr(of: result)
        #expect(
            output.contains(
                """
                Assemblies: warning: LedgerAssembly.ledger registered a value of type Ledger, which is not a class, \
                with *~>, and LedgerAssembly.clerk read it back while it was being built: LedgerAssembly.ledger → \
                LedgerAssembly.clerk → LedgerAssembly.ledger. The reader got a copy made when the value was \
                registered, which doesn't see what the body changes afterwards. To fix this, make Ledger a class, or \
                finish the value before registering it.
                """
            ),
            "\(output)"
        )
        #expect(output.components(separatedBy: "registered a value of type").count == 4, "once per family")
    }

    @Test func aSingletonValueInACycleWarnsToo() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            _ = LedgerAssembly().storedLedger
        }
        #expect(
            stderr(of: result).contains(
                "LedgerAssembly.storedLedger → LedgerAssembly.storedClerk → LedgerAssembly.storedLedger. The reader got a copy"
            )
        )
    }

    @Test func objectsInCyclesDoNotWarn() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            _ = LedgerAssembly().objectLedger
            _ = LedgerAssembly().protocolLedger
        }
        #expect(!stderr(of: result).contains("warning"), "\(stderr(of: result))")
    }
}
