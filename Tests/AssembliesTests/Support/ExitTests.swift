import Foundation
import Testing

/// What an exit test's child process wrote to standard error, as text.
func stderr(of result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// Ends an exit test's child process with status 75 after `seconds`, so that a child that would
/// hang fails its test instead: Swift Testing's time limit doesn't reach the child.
func stopsAfter(seconds: Double) {
    Thread.detachNewThread {
        Thread.sleep(forTimeInterval: seconds)
        exit(75)
    }
}
