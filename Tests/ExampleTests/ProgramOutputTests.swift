import Foundation
import Testing

@testable import Example

@Suite struct ProgramOutputTests {
    @Test func theDefaultRunShowsTheFirstCity() async throws {
        let lines = try await PocketForecast.output(for: Arguments())
        #expect(lines.first == "PocketForecast, wired by Assemblies")
        #expect(lines.contains("Theme: Beach"))
        #expect(lines.contains("o~ Cities you follow ~~~~~~~~~~o"))
        #expect(lines.contains("| > Manila                     |"))
        #expect(lines.contains("|   Omsk                       |"))
        #expect(lines.contains("o~ Weather in Manila ~~~~~~~~~~~~~~~~~o"))
        #expect(lines.contains("| Now       Sunny, 31°C               |"))
        #expect(lines.contains("| Mon       Thunderstorms  26 to 32°C |"))
    }

    @Test func theGraphShowsTheCyclesAndTheSingletons() async throws {
        let mermaid = try await PocketForecast.graph(of: Arguments(), as: .mermaid)
        #expect(mermaid.hasPrefix("flowchart TD\n"))
        #expect(mermaid.contains("[[\"ApplicationAssembly.weatherClient<br/>WeatherClient · singleton\"]]"))
        #expect(mermaid.components(separatedBy: "-. in flight .->").count == 3, "two cycles close")
        let dot = try await PocketForecast.graph(of: Arguments(), as: .dot)
        #expect(dot.hasPrefix("digraph Assemblies {\n"))
        #expect(dot.components(separatedBy: "label=\"in flight\"").count == 3)
    }

    @Test func theExampleHasNoCaptiveDependency() {
        let assembly = ApplicationAssembly()
        let found = FoundCaptives()
        assembly.checkCaptiveDependencies(.report { captive in found.append("\(captive)") })
        assembly.activate()
        _ = assembly.inject(AppDelegate(arguments: Arguments())).run()
        #expect(found.all.isEmpty)
    }

    @Test func everyWiringFactHolds() async throws {
        let lines = try await PocketForecast.output(for: Arguments())
        let facts = lines.drop { $0 != "How it was wired" }.dropFirst()
        #expect(facts.count == 11)
        #expect(facts.allSatisfy { $0.hasPrefix("[ok]") })
        #expect(facts.contains { $0.contains("root.citiesList.root === root") })
        #expect(facts.contains { $0.contains("weatherReport.presenter.view === weatherReport") })
    }

    @Test func theDefaultRunIsSignedInAsGuestAndEndsTheSession() async throws {
        let lines = try await PocketForecast.output(for: Arguments())
        #expect(lines.contains("Signed in as guest"))
        #expect(lines.filter { $0.hasPrefix("Signed in as") }.count == 1)
        #expect(lines.contains("Ended guest's session and saved their preferences: 5 cities, showing Manila, in °C."))
        let facts = lines.drop { $0 != "How it was wired" }
        #expect(facts.contains { $0.contains("UserSession.dispose() saved its preferences") })
        #expect(facts.contains { $0.contains("one report formatter per unit (runtime argument)") })
    }

    @Test func unitsOnTheCommandLineChangeTheTemperatures() async throws {
        let lines = try await PocketForecast.output(for: Arguments(parsing: ["--units", "fahrenheit"]))
        #expect(lines.contains("| Now       Sunny, 88°F               |"))
        #expect(lines.contains("| Mon       Thunderstorms  79 to 90°F |"))
        #expect(!lines.contains { $0.contains("°C") })
        #expect(lines.contains { $0.hasSuffix("showing Manila, in °F.") })
    }

    @Test func switchingUsersSavesTheFirstSessionAndStartsAFreshOne() async throws {
        let lines = try await PocketForecast.output(
            for: Arguments(parsing: ["--city", "Omsk", "--units", "fahrenheit", "--switch-user", "alice"])
        )
        let guest = lines.prefix { $0 != "Signed in as alice" }
        let alice = lines.drop { $0 != "Signed in as alice" }
        #expect(guest.contains("Signed in as guest"))
        #expect(guest.contains("| > Omsk                       |"))
        #expect(guest.contains("| Now       Snow, 10°F           |"))
        #expect(guest.last == "Ended guest's session and saved their preferences: 5 cities, showing Omsk, in °F.")
        #expect(alice.contains("| > Manila                     |"))
        #expect(alice.contains("| Now       Sunny, 31°C               |"))
        #expect(alice.contains("Ended alice's session and saved their preferences: 5 cities, showing Manila, in °C."))
        let facts = lines.drop { $0 != "How it was wired" }.dropFirst()
        #expect(facts.count == 11)
        #expect(facts.allSatisfy { $0.hasPrefix("[ok]") })
    }

    @Test func switchingBackRestoresWhatTheUserSaved() async throws {
        let lines = try await PocketForecast.output(
            for: Arguments(city: "Omsk", units: .fahrenheit, usersToSwitchTo: ["alice", "guest"])
        )
        #expect(
            lines.filter { $0.hasPrefix("Signed in as") } == [
                "Signed in as guest", "Signed in as alice", "Signed in as guest",
            ]
        )
        let guestAgain = lines.drop { $0 != "Signed in as alice" }.drop { $0 != "Signed in as guest" }
        #expect(guestAgain.contains("| > Omsk                       |"))
        #expect(guestAgain.contains("| Now       Snow, 10°F           |"))
    }

    @Test func aCityOnTheCommandLineIsFollowedAndShown() async throws {
        let lines = try await PocketForecast.output(for: Arguments(parsing: ["--city", "Omsk"]))
        #expect(lines.contains("|   Manila                     |"))
        #expect(lines.contains("| > Omsk                       |"))
        #expect(lines.contains { $0.hasPrefix("o~ Weather in Omsk ~") })
        #expect(lines.contains { $0.hasPrefix("| Now       Snow, -12°C") })
    }

    @Test func aCityWithoutAForecastSaysSo() async throws {
        let lines = try await PocketForecast.output(for: Arguments(city: "Atlantis"))
        #expect(lines.contains { $0.hasPrefix("| > Atlantis") })
        #expect(lines.contains { $0.contains("No forecast available for Atlantis.") })
    }

    @Test func theOutputIsTheSameOnEveryRun() async throws {
        let first = try await PocketForecast.output(for: Arguments())
        #expect(try await PocketForecast.output(for: Arguments()) == first)
    }
}

/// The captive dependencies reported, from any thread.
private final class FoundCaptives: @unchecked Sendable {
    // @unchecked: `found` is only touched while holding `lock`.
    private let lock = NSLock()
    private var found: [String] = []

    var all: [String] { lock.withLock { found } }

    func append(_ captive: String) { lock.withLock { found.append(captive) } }
}
