// The baseline: the same graphs wired by hand with plain initializers, the way a program without a
// dependency-injection framework would build them.

enum HandWritten {
    static func chain() -> Chain5 {
        Chain5(next: Chain4(next: Chain3(next: Chain2(next: Chain1()))))
    }

    static func diamond() -> DiamondTop {
        let bottom = DiamondBottom()
        return DiamondTop(left: DiamondLeft(bottom: bottom), right: DiamondRight(bottom: bottom))
    }

    static func application() -> Application {
        let configuration = Configuration()
        let logger = Logger()
        return Application(
            accounts: AccountService(
                client: HTTPClient(configuration: configuration, logger: logger),
                logger: logger
            ),
            orders: OrderService(database: Database(configuration: configuration), logger: logger),
            search: SearchService(cache: Cache(logger: logger), configuration: configuration),
            settings: SettingsService(configuration: configuration, logger: logger)
        )
    }

    /// Reads the program-wide instance through a call, as code in another module reads a global
    /// through its accessor: without it, the optimizer hoists the read out of the timing loop and
    /// the baseline measures nothing.
    @inline(never)
    static func sharedService() -> SharedService {
        handWrittenSharedService
    }

    static func cycle() -> CycleA {
        let a = CycleA()
        let b = CycleB()
        a.b = b
        b.a = a
        return a
    }
}

/// The hand-written singleton: a global `let`, initialized lazily and exactly once by Swift.
let handWrittenSharedService = SharedService()
