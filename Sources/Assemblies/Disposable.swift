/// An instance of a resettable scope that wants to know when its scope is reset.
///
/// ``Assembly/reset(_:)`` calls ``dispose()`` on each instance it drops that adopts this protocol,
/// the most recently built first — so an instance is disposed of before the instances it was built
/// from.
///
/// ```swift
/// final class Session: Disposable {
///     func dispose() { token.revoke() }
/// }
///
/// var session: Session { define(scope: .session) { Session(token: self.token) } }
/// ```
public protocol Disposable {
    /// Releases what the instance holds; called once, when its scope is reset.
    func dispose()
}
