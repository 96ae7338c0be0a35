import Assemblies
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import NotesServer

/// The routes, against the real router of a family whose store a test replaces with `Overrides`.
@Suite("The notes API") struct NotesRoutesTests {
    /// A family of the server with `store` in place of its store, and runs `test` against its routes.
    private func withServer(
        store: InMemoryNoteStore = InMemoryNoteStore(),
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = NotesAppAssembly(configuration: ServerSettings(port: 0, logLevel: .error))
        let overrides = Overrides(of: app)
        await overrides.replace(awaiting: { await $0.storage.noteStore }, with: { store as any NoteStore })
        try await overrides.apply {
            try await app.http.application.test(.router, test)
        }
        withExtendedLifetime(app) {}
    }

    @Test func createsListsShowsAndDeletesNotes() async throws {
        let store = InMemoryNoteStore()
        try await withServer(store: store) { client in
            let created = try await client.post("/notes", #"{"text":"milk"}"#)
            #expect(created.status == .created)
            let note = try decode(Note.self, created)
            #expect(note == Note(id: 1, text: "milk"))
            let list = try await client.execute(uri: "/notes", method: .get)
            #expect(list.status == .ok)
            let notes = try decode(NoteList.self, list).notes
            #expect(notes == [Note(id: 1, text: "milk")])
            let shown = try decode(Note.self, try await client.execute(uri: "/notes/1", method: .get))
            #expect(shown.text == "milk")
            let deleted = try await client.execute(uri: "/notes/1", method: .delete)
            #expect(deleted.status == .noContent)
            let gone = try await client.execute(uri: "/notes/1", method: .get)
            #expect(gone.status == .notFound)
        }
        let left = try await store.all()
        #expect(left.isEmpty, "the routes used the store the test put in")
    }

    @Test func badInputIsABadRequest() async throws {
        try await withServer { client in
            let empty = try await client.post("/notes", #"{"text":"  "}"#)
            #expect(empty.status == .badRequest)
            let notJSON = try await client.post("/notes", "not json")
            #expect(notJSON.status == .badRequest)
            let notANumber = try await client.execute(uri: "/notes/abc", method: .get)
            #expect(notANumber.status == .badRequest)
            let missing = try await client.execute(uri: "/notes/7", method: .delete)
            #expect(missing.status == .notFound)
        }
    }

    @Test func theStoreATestPutsInIsWhatTheRoutesRead() async throws {
        let store = InMemoryNoteStore(notes: [Note(id: 41, text: "seeded")])
        try await withServer(store: store) { client in
            let seeded = try decode(Note.self, try await client.execute(uri: "/notes/41", method: .get))
            #expect(seeded.text == "seeded")
        }
    }
}

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(type, from: Data(buffer: response.body))
}

extension TestClientProtocol {
    fileprivate func post(_ uri: String, _ json: String) async throws -> TestResponse {
        try await execute(
            uri: uri,
            method: .post,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: json)
        )
    }
}

@Suite("The server's family") struct NotesFamilyTests {
    @Test func theWiringCheckFindsNoProblem() async {
        let app = NotesAppAssembly(configuration: ServerSettings(port: 0))
        let report = await app.checkWiring()
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func eachRequestHasAGraphOfItsOwn() async {
        let app = NotesAppAssembly(configuration: ServerSettings(port: 0))
        let controller = app.http.controller
        let first = await controller.makeHandler(RequestInfo(method: "GET", path: "/notes"))
        let second = await controller.makeHandler(RequestInfo(method: "GET", path: "/notes/1"))
        #expect(first.request.path == "/notes")
        #expect(second.request.path == "/notes/1")
        #expect(first.validator !== second.validator)
        #expect(first.store as AnyObject === second.store as AnyObject, "one store for the family")
        withExtendedLifetime(app) {}
    }

    @Test func shuttingDownClosesTheStoreAndReleasingTheRootReleasesIt() async throws {
        weak var store: InMemoryNoteStore?
        do {
            let app = NotesAppAssembly(configuration: ServerSettings(port: 0, logLevel: .error))
            try await app.activate()
            let opened = await app.storage.noteStore as? InMemoryNoteStore
            store = opened
            _ = await app.http.controller.makeHandler(RequestInfo(method: "GET", path: "/notes"))
            try await app.shutDown()
            await #expect(throws: StoreClosed.self) { try await opened?.all() }
        }
        #expect(store == nil, "the controller keeps a provider, not the family")
    }
}
