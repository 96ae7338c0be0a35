/// Which definition a ``Resolution``, a recorded graph or a report is about: the assembly type, the
/// member that defines it and its explicit key, if it has one.
///
/// ```swift
/// resolution.definition.description   // "AppAssembly.cafe"
/// ```
public struct DefinitionName: Hashable, Sendable, CustomStringConvertible {
    /// The assembly type that defines it: `AppAssembly`.
    public let assembly: String
    /// The member, as `#function` names it: `cafe`, or `knight(named:)` for a method.
    public let member: String
    /// The key given to `define(withKey:)`, or nil for a definition known by its member.
    public let key: String?

    init(_ key: DefinitionKey) {
        assembly = String(describing: key.assembly)
        member = key.member
        self.key = key.isExplicit ? key.nameDescription : nil
    }

    /// `AppAssembly.cafe`, or `AppAssembly.cafe (key "cafe")` for an explicit key.
    public var description: String {
        let site = "\(assembly).\(member)"
        guard let key else { return site }
        return "\(site) (key \"\(key)\")"
    }
}
