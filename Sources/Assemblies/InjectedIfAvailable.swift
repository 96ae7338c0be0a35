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
/// the program, and the next access tries again. Once resolved, it returns the same instance.
@propertyWrapper
public struct InjectedIfAvailable<Root: Assembly, Value> {
    private let keyPath: KeyPath<Root, Value>
    private var value: Value?

    /// A property resolved from the definition that `keyPath` reads, when a family is the default.
    ///
    /// - Parameter keyPath: A definition, from an assembly type of the default family.
    public init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
    }

    /// The instance, or `nil` while no family is the default.
    public var wrappedValue: Value? {
        mutating get {
            if let value { return value }
            value = DefaultAssembly.assembly(Root.self).map { DefaultAssembly.read(keyPath, from: $0) }
            return value
        }
        set {
            value = newValue
        }
    }
}
