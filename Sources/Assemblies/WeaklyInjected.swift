/// A property resolved on first access from the default family of assemblies and held weakly.
///
/// ```swift
/// final class ForecastView {
///     @WeaklyInjected(\ApplicationAssembly.presenter) var presenter: ForecastPresenter?
/// }
/// ```
///
/// Like ``Injected``, but the property doesn't keep the instance alive: it is `nil` once everything
/// else has released it, and it isn't resolved again — the way to point back at an owner without
/// a reference cycle. Reading it for the first time when no family is the default stops the
/// program, as ``Injected`` does.
@propertyWrapper
public struct WeaklyInjected<Root: Assembly, Value: AnyObject> {
    private let keyPath: KeyPath<Root, Value>
    private var isResolved = false
    private weak var value: Value?

    /// A weakly held property resolved from the definition that `keyPath` reads.
    ///
    /// - Parameter keyPath: A definition of a class, from an assembly type of the default family.
    public init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
    }

    /// The instance while something else holds it, else `nil`.
    public var wrappedValue: Value? {
        mutating get {
            if !isResolved {
                // Kept alive for this access by the returned reference.
                let resolved = DefaultAssembly.value(at: keyPath, for: "WeaklyInjected")
                isResolved = true
                value = resolved
                return resolved
            }
            return value
        }
        set {
            isResolved = true
            value = newValue
        }
    }
}
