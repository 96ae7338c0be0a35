import Foundation
import Hummingbird
import Logging

/// Handles one request: built for it, in its own graph, with the request's logger.
public final class NotesHandler {
    let request: RequestInfo
    let store: any NoteStore
    let logger: Logger
    let validator: NoteValidator

    init(request: RequestInfo, store: any NoteStore, logger: Logger, validator: NoteValidator) {
        self.request = request
        self.store = store
        self.logger = logger
        self.validator = validator
    }

    func list() async throws -> NoteList {
        NoteList(notes: try await store.all())
    }

    func create(_ new: NewNote) async throws -> EditedResponse<Note> {
        try validator.validate(new.text)
        let note = try await store.add(text: new.text)
        logger.debug("added note \(note.id)")
        return EditedResponse(status: .created, response: note)
    }

    func show(id: Int) async throws -> Note {
        guard let note = try await store.note(id: id) else {
            throw HTTPError(.notFound, message: "no note \(id)")
        }
        return note
    }

    func delete(id: Int) async throws -> HTTPResponse.Status {
        guard try await store.delete(id: id) else {
            throw HTTPError(.notFound, message: "no note \(id)")
        }
        return .noContent
    }
}

/// Checks a note's text; it logs with the logger of the request it belongs to.
final class NoteValidator {
    static let maximumLength = 1_000
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func validate(_ text: String) throws {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            logger.debug("rejected an empty note")
            throw HTTPError(.badRequest, message: "a note needs text")
        }
        if text.count > Self.maximumLength {
            throw HTTPError(.badRequest, message: "a note holds at most \(Self.maximumLength) characters")
        }
    }
}
