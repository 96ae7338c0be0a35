/// A property resolved on first access from the default family of assemblies.
///
/// Name the definition by key path, so a wrong name or type doesn't compile:
///
/// ```swift
/// final class SettingsController {
///     @Injected(\ApplicationAssembly.preferences) var preferences: Preferences
///     @Injected(\CoreComponents.logger) var logger: Logger   // a collaborator of the default family
/// }
/// ```
///
/// The first access reads the definition from the family that the program made the default with
/// ``Assembly/makeDefault()`` (or, in a task, ``Assembly/makeDefault(during:)``), so overrides
/// applied in the task take effect; later accesses return the same value. Assigning the property
/// replaces the value. The key path's root may be any assembly type of that family: the root's own
/// type, a superclass of it, or a collaborator.
///
/// ## Threads
///
/// The getter doesn't mutate, so the property can be read where nothing may change — a SwiftUI
/// view's `body`, a `let` constant's members — and from any thread: when several threads read it
/// first at once, one resolves it and the others wait for that value, so the definition is read
/// once. The wrapper is `Sendable` when `Value` is. Copies of a wrapper share its value.
///
/// Reading the property when no family is the default stops the program with a message saying how
/// to make one the default. ``InjectedIfAvailable`` gives `nil` instead; ``WeaklyInjected`` doesn't
/// keep the instance alive.
@propertyWrapper
public struct Injected<Root: Assembly, Value> {
    private let cell: InjectionCell<Root, Value, Value>

    /// A property resolved from the definition that `keyPath` reads.
    ///
    /// - Parameter keyPath: A definition, from an assembly type of the default family.
    public init(_ keyPath: KeyPath<Root, Value>) {
        cell = InjectionCell(keyPath)
    }

    /// The instance, resolved on first access.
    public var wrappedValue: Value {
        get {
            // Never nil: the resolution returns a value or stops the program.
            cell.value(wrapper: "Injected") { DefaultAssembly.value(at: cell.keyPath, for: "Injected") }!
        }
        nonmutating set {
            cell.set(newValue)
        }
    }
}

extension Injected: Sendable where Value: Sendable {}
