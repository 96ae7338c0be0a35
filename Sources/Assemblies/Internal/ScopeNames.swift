/// The names of resettable scopes, numbered from 1 in the order they were first made, so that a
/// ``Scope`` carries a number instead of a string. Names are few and fixed (`StaticString`), so
/// they are kept for the life of the process.
enum ScopeNames {
    private static let names = Locked<(numbers: [String: UInt32], names: [String])>(([:], []))

    /// The number of `name`, given on first use.
    static func number(of name: String) -> UInt32 {
        names.withLock { names in
            if let number = names.numbers[name] { return number }
            names.names.append(name)
            let number = UInt32(names.names.count)
            names.numbers[name] = number
            return number
        }
    }

    /// The name numbered `number`.
    static func name(numbered number: UInt32) -> String {
        names.withLock { names in number > 0 ? names.names[Int(number) - 1] : "" }
    }
}
