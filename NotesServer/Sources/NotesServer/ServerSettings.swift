import Configuration
import Logging

/// What the server reads from its configuration, once, when it starts.
public struct ServerSettings: Sendable {
    public let host: String
    public let port: Int
    public let logLevel: Logger.Level
    /// Where to write the wiring graph at launch (Mermaid), if anywhere.
    public let graphPath: String?

    public init(host: String = "127.0.0.1", port: Int = 8080, logLevel: Logger.Level = .info, graphPath: String? = nil)
    {
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.graphPath = graphPath
    }

    /// Reads `HOST`, `PORT`, `LOG_LEVEL` and `GRAPH_PATH` (as environment variables, say).
    public init(reading config: ConfigReader) {
        host = config.string(forKey: "host", default: "127.0.0.1")
        port = config.int(forKey: "port", default: 8080)
        logLevel = Logger.Level(rawValue: config.string(forKey: "log.level", default: "info")) ?? .info
        graphPath = config.string(forKey: "graph.path")
    }
}
