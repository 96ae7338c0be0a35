import Assemblies
import Logging

/// Every read as a debug message of a swift-log `Logger`, with its details as metadata.
struct LoggingObserver: ResolutionObserver {
    let logger: Logger

    func didResolve(_ resolution: Resolution) {
        logger.debug(
            "\(resolution.definition) \(resolution.source)",
            metadata: [
                "scope": "\(resolution.scope)",
                "depth": "\(resolution.depth)",
                "nanoseconds": "\(resolution.nanoseconds)",
            ]
        )
    }
}
