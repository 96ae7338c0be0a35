/// The values a root assembly was created with (``Assembly/init(configuration:)``), one of each type,
/// which every assembly of its family reads with ``Assembly/configuration(_:)``.
struct FamilyConfiguration: Sendable {
    /// The root's type, for messages: its name is made only when a message needs it (the first
    /// `String(describing:)` of a process costs about a millisecond of conformance lookups).
    let rootType: Assembly.Type
    /// Whether the root was created with `init(configuration:)`.
    let isGiven: Bool
    private let values: [any Sendable]

    /// No values: `rootType` was created with `init()`.
    init(unconfigured rootType: Assembly.Type) {
        self.rootType = rootType
        isGiven = false
        values = []
    }

    /// `values`, given to `rootType`'s `init(configuration:)`; stops when two have the same type.
    init<each Value: Sendable>(of rootType: Assembly.Type, _ values: repeat each Value) {
        var all: [any Sendable] = []
        func add(_ value: some Sendable) {
            if let twin = all.first(where: { type(of: $0) == type(of: value) }) {
                Failure.configurationTypeGivenTwice(rootType, type(of: twin))
            }
            all.append(value)
        }
        repeat add(each values)
        self.rootType = rootType
        isGiven = true
        self.values = all
    }

    /// The value of type `Value`, or the one value that is a `Value` (a protocol or superclass);
    /// stops when there is none, or several. `reader` names the assembly that asks, for messages.
    func value<Value>(_: Value.Type, readBy reader: Assembly.Type) -> Value {
        if let exact = values.first(where: { type(of: $0) == Value.self }) {
            return exact as! Value
        }
        let matches = values.compactMap { $0 as? Value }
        guard matches.count == 1 else {
            Failure.configurationValueMissing(
                Value.self,
                readBy: reader,
                configuration: self,
                matches: matches.map { type(of: $0 as Any) }
            )
        }
        return matches[0]
    }

    /// The types of the values, for messages.
    var typeNames: [String] { values.map { String(describing: type(of: $0)) } }
}
