import Testing

@testable import Example

@Suite struct ProgramOutputTests {
    @Test func theDefaultRunShowsTheFirstCity() {
        let lines = PocketForecast.output(for: Arguments())
        #expect(lines.first == "PocketForecast, wired by Assemblies")
        #expect(lines.contains("Theme: Beach"))
        #expect(lines.contains("o~ Cities you follow ~~~~~~~~~~o"))
        #expect(lines.contains("| > Manila                     |"))
        #expect(lines.contains("|   Omsk                       |"))
        #expect(lines.contains("o~ Weather in Manila ~~~~~~~~~~~~~~~~~o"))
        #expect(lines.contains("| Now       Sunny, 31°C               |"))
        #expect(lines.contains("| Mon       Thunderstorms  26 to 32°C |"))
    }

    @Test func everyWiringFactHolds() {
        let lines = PocketForecast.output(for: Arguments())
        let facts = lines.drop { $0 != "How it was wired" }.dropFirst()
        #expect(facts.count == 8)
        #expect(facts.allSatisfy { $0.hasPrefix("[ok]") })
        #expect(facts.contains { $0.contains("root.citiesList.root === root") })
        #expect(facts.contains { $0.contains("weatherReport.presenter.view === weatherReport") })
    }

    @Test func aCityOnTheCommandLineIsFollowedAndShown() {
        let lines = PocketForecast.output(for: Arguments(parsing: ["--city", "Omsk"]))
        #expect(lines.contains("|   Manila                     |"))
        #expect(lines.contains("| > Omsk                       |"))
        #expect(lines.contains { $0.hasPrefix("o~ Weather in Omsk ~") })
        #expect(lines.contains { $0.hasPrefix("| Now       Snow, -12°C") })
    }

    @Test func aCityWithoutAForecastSaysSo() {
        let lines = PocketForecast.output(for: Arguments(city: "Atlantis"))
        #expect(lines.contains { $0.hasPrefix("| > Atlantis") })
        #expect(lines.contains { $0.contains("No forecast available for Atlantis.") })
    }

    @Test func theOutputIsTheSameOnEveryRun() {
        #expect(PocketForecast.output(for: Arguments()) == PocketForecast.output(for: Arguments()))
    }
}
