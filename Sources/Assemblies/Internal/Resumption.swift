/// A suspended task, to be resumed once, kept by reference in the state of a family or a store.
///
/// A `CheckedContinuation` stored in a type's layout — a case of an enum a class keeps — made the
/// first instance of that type instantiate the continuation's metadata at run time: the check that
/// `Never` conforms to `Error` scans every protocol conformance of the process, ~200,000
/// instructions in the first `Assembly.init()` of a program. A class reference has a layout known
/// when the library is compiled.
final class Resumption: Sendable {
    private let continuation: CheckedContinuation<Void, Never>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func resume() {
        continuation.resume()
    }
}
