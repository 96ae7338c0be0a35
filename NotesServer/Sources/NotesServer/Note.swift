import Hummingbird

/// A note, as the API returns it.
public struct Note: Codable, Equatable, Sendable, ResponseEncodable {
    public let id: Int
    public let text: String

    public init(id: Int, text: String) {
        self.id = id
        self.text = text
    }
}

/// What `POST /notes` takes.
struct NewNote: Decodable {
    let text: String
}

/// What `GET /notes` returns.
public struct NoteList: Codable, Equatable, Sendable, ResponseEncodable {
    public let notes: [Note]
}
