import Testing

@testable import Example

@Suite struct ArgumentsTests {
    @Test func parsesACity() {
        #expect(Arguments(parsing: ["--city", "San Francisco"]).city == "San Francisco")
        #expect(Arguments(parsing: ["--city=Madrid"]).city == "Madrid")
        #expect(Arguments(parsing: []) == Arguments())
    }

    @Test func keepsWhatItDoesNotUnderstand() {
        let arguments = Arguments(parsing: ["--verbose", "--city"])
        #expect(arguments.city == nil)
        #expect(arguments.unrecognized == ["--verbose", "--city"])
    }
}
