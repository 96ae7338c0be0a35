import Assemblies

/// A connection pool: a resource the family must release when the server stops.
final class ConnectionPool: Sendable {
    func close() async { print("connection pool closed") }
}

final class NoteStore: Sendable {
    let pool: ConnectionPool
    init(pool: ConnectionPool) { self.pool = pool }
    func close() async { print("note store flushed") }
}

final class NotesHandler {
    let store: NoteStore
    let path: String
    init(store: NoteStore, path: String) {
        self.store = store
        self.path = path
    }

    func respond() -> String { "200 OK \(path)" }
}

final class NotesAssembly: Assembly, @unchecked Sendable {
    var pool: ConnectionPool {
        define(scope: .singleton) { definition in
            definition.onShutdown { pool in await pool.close() }
            return ConnectionPool()
        }
    }

    var store: NoteStore {
        define(scope: .singleton) { definition in
            definition.onShutdown { store in await store.close() }
            return NoteStore(pool: self.pool)
        }
    }

    func handler(for path: String) -> NotesHandler {
        define(arguments: path) { NotesHandler(store: self.store, path: path) }
    }
}
