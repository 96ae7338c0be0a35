import Testing

@testable import Example

@Suite struct ArgumentsTests {
    @Test func parsesACity() {
        #expect(Arguments(parsing: ["--city", "San Francisco"]).city == "San Francisco")
        #expect(Arguments(parsing: ["--city=Madrid"]).city == "Madrid")
        #expect(Arguments(parsing: []) == Arguments())
    }

    @Test func parsesTheGraphFormat() {
        #expect(Arguments(parsing: ["--graph"]).graphFormat == .mermaid)
        #expect(Arguments(parsing: ["--graph", "dot"]).graphFormat == .dot)
        #expect(Arguments(parsing: ["--graph", "--city", "Omsk"]).city == "Omsk")
        #expect(Arguments(parsing: []).graphFormat == nil)
    }

    @Test func keepsWhatItDoesNotUnderstand() {
        let arguments = Arguments(parsing: ["--verbose", "--city"])
        #expect(arguments.city == nil)
        #expect(arguments.unrecognized == ["--verbose", "--city"])
    }

    @Test func parsesUnits() {
        #expect(Arguments(parsing: ["--units", "fahrenheit"]).units == .fahrenheit)
        #expect(Arguments(parsing: ["--units=celsius"]).units == .celsius)
        #expect(Arguments(parsing: []).units == nil)
    }

    @Test func keepsUnitsItDoesNotKnow() {
        let arguments = Arguments(parsing: ["--units", "kelvin", "--units=rankine"])
        #expect(arguments.units == nil)
        #expect(arguments.unrecognized == ["--units", "kelvin", "--units=rankine"])
    }

    @Test func parsesUsersToSwitchToInOrder() {
        let arguments = Arguments(parsing: ["--switch-user", "alice", "--city", "Omsk", "--switch-user=bob"])
        #expect(arguments.usersToSwitchTo == ["alice", "bob"])
        #expect(arguments.city == "Omsk")
        #expect(Arguments(parsing: ["--switch-user"]).unrecognized == ["--switch-user"])
    }
}
