/// A property resolved from the default family of assemblies when there is one, and `nil` while
/// there is none.
///
/// ```swift
/// final class CrashReporter {
///     @InjectedIfAvailable(\ApplicationAssembly.analytics) var analytics: Analytics?
/// }
/// ```
///
/// Like ``Injected``, but an access while no family is the default gives `nil` instead of stopping
/// the program, and the next access tries again. Once resolved, it returns the same instance. Like
/// ``Injected``, it can be read from any thread with a getter that doesn't mutate, and is
/// `Sendable` when `Value` is.
@propertyWrapper
public struct InjectedIfAvailable<Root: Assembly, Value> {
    private let cell: InjectionCell<Root, Value, Value>

    /// A property resolved from the definition that `keyPath` reads, when a family is the default.
    ///
    /// - Parameter keyPath: A definition, from an assembly type of the default family.
    public init(_ keyPath: KeyPath<Root, Value>) {
        cell = InjectionCell(keyPath)
    }

    /// The instance, or `nil` while no family is the default.
    public var wrappedValue: Value? {
        get {
            cell.value(wrapper: "InjectedIfAvailable") {
                DefaultAssembly.assembly(Root.self).map { DefaultAssembly.read(cell.keyPath, from: $0) }
            }
        }
        nonmutating set {
            if let newValue { cell.set(newValue) } else { cell.reset() }
        }
    }
}

extension InjectedIfAvailable: Sendable where Value: Sendable {}
