import Configuration

/// What the server reads from its configuration, once, when it starts.
struct ServerSettings: Sendable {
    let databaseURL: String
    let poolSize: Int
    let greeting: String

    init(reading config: ConfigReader) {
        databaseURL = config.string(forKey: "database.url", default: "sqlite::memory:")
        poolSize = config.int(forKey: "database.pool-size", default: 4)
        greeting = config.string(forKey: "greeting", default: "Hello")
    }
}

/// Where the server runs.
enum Deployment: String, Sendable {
    case development, production
}
