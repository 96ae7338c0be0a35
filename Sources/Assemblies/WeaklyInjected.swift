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
/// program, as ``Injected`` does. Like ``Injected``, it can be read from any thread with a getter
/// that doesn't mutate, and is `Sendable` when `Value` is.
@propertyWrapper
public struct WeaklyInjected<Root: Assembly, Value: AnyObject> {
    private let cell: InjectionCell<Root, Value, WeakReference<Value>>

    /// A weakly held property resolved from the definition that `keyPath` reads.
    ///
    /// - Parameter keyPath: A definition of a class, from an assembly type of the default family.
    public init(_ keyPath: KeyPath<Root, Value>) {
        cell = InjectionCell(keyPath)
    }

    /// The instance while something else holds it, else `nil`.
    public var wrappedValue: Value? {
        get {
            var resolved: Value?  // keeps a new instance alive until it is returned
            let reference = cell.value(wrapper: "WeaklyInjected") {
                resolved = DefaultAssembly.value(at: cell.keyPath, for: "WeaklyInjected")
                return WeakReference(resolved)
            }
            return resolved ?? reference?.object
        }
        nonmutating set {
            cell.set(WeakReference(newValue))
        }
    }
}

extension WeaklyInjected: Sendable where Value: Sendable {}
