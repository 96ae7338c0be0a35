import Logging

/// Prints each message with its level and the metadata the recipe's output can show.
struct PrintingLogHandler: LogHandler {
    let label: String
    var logLevel = Logger.Level.info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let details = ["scope", "depth"].compactMap { key in event.metadata?[key].map { "\(key)=\($0)" } }
        print("\(event.level) \(event.message) \(details.joined(separator: " "))")
    }
}
