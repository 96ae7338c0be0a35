/// Where notes are kept: the server reads it through this protocol, and tests replace it.
public protocol NoteStore: Sendable {
    func all() async throws -> [Note]
    func note(id: Int) async throws -> Note?
    func add(text: String) async throws -> Note
    /// Whether a note was deleted.
    func delete(id: Int) async throws -> Bool
    /// Stops taking requests and releases what the store holds; called once, at shutdown.
    func close() async throws
}

/// A store that keeps notes in memory, in an actor.
public actor InMemoryNoteStore: NoteStore {
    private var notes: [Int: Note] = [:]
    private var nextID = 1
    private var isClosed = false

    public init(notes: [Note] = []) {
        for note in notes {
            self.notes[note.id] = note
            nextID = max(nextID, note.id + 1)
        }
    }

    public func all() throws -> [Note] {
        try requireOpen()
        return notes.values.sorted { $0.id < $1.id }
    }

    public func note(id: Int) throws -> Note? {
        try requireOpen()
        return notes[id]
    }

    public func add(text: String) throws -> Note {
        try requireOpen()
        let note = Note(id: nextID, text: text)
        notes[note.id] = note
        nextID += 1
        return note
    }

    public func delete(id: Int) throws -> Bool {
        try requireOpen()
        return notes.removeValue(forKey: id) != nil
    }

    public func close() {
        isClosed = true
    }

    private func requireOpen() throws {
        if isClosed { throw StoreClosed() }
    }
}

/// A request reached a store that was shut down.
public struct StoreClosed: Error {}
