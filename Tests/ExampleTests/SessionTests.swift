import Assemblies
import Testing

@testable import Example

@Suite struct SessionTests {
    @Test func everyScreenSharesTheSessionUntilItIsReset() throws {
        let application = ApplicationAssembly()
        let session = application.core.userSession
        #expect(application.core.userSession === session)
        let root = application.viewControllers.rootController
        #expect(try #require(root.weatherReport?.presenter).session === session)
        #expect(try #require(root.citiesList).cityStore === session.cityStore)
        let delegate = application.inject(AppDelegate(arguments: Arguments()))
        #expect(delegate.session === session)
        #expect(delegate.cityStore === session.cityStore)
    }

    @Test func resettingTheSessionSavesItAndTheNextReadBuildsANewOne() throws {
        let application = ApplicationAssembly()
        let session = application.core.userSession
        session.cityStore.select("Omsk")
        session.units = .fahrenheit
        let accounts = application.core.accountStore
        #expect(accounts.savedPreferences(for: "guest") == nil)

        application.reset(.session)

        let saved = try #require(accounts.savedPreferences(for: "guest"))
        #expect(saved == UserPreferences(cities: session.cityStore.cities, selectedCity: "Omsk", units: .fahrenheit))
        let next = application.core.userSession
        #expect(next !== session)
        #expect(next.cityStore !== session.cityStore)
        #expect(application.core.cityStore === next.cityStore)
    }

    @Test func resettingTheSessionLeavesTheSingletonsAlone() {
        let application = ApplicationAssembly()
        let theme = application.themes.currentTheme
        let client = application.weatherClient
        let accounts = application.core.accountStore
        let formatter = application.core.reportFormatter(in: .celsius)
        _ = application.core.userSession
        application.reset(.session)
        #expect(application.themes.currentTheme === theme)
        #expect(application.weatherClient === client)
        #expect(application.core.accountStore === accounts)
        #expect(application.core.reportFormatter(in: .celsius) === formatter)
    }

    @Test func aNewSessionStartsFromWhatItsUserSaved() {
        let application = ApplicationAssembly()
        let accounts = application.core.accountStore
        let guest = application.core.userSession
        guest.cityStore.select("Atlantis")
        guest.units = .fahrenheit

        application.reset(.session)
        accounts.signIn("alice")
        let alice = application.core.userSession
        #expect(alice.user == "alice")
        #expect(alice.preferences == accounts.defaults)

        application.reset(.session)
        accounts.signIn("guest")
        let guestAgain = application.core.userSession
        #expect(guestAgain !== guest)
        #expect(guestAgain.user == "guest")
        #expect(guestAgain.cityStore.currentCity == "Atlantis")
        #expect(guestAgain.cityStore.cities.last == "Atlantis")
        #expect(guestAgain.units == .fahrenheit)
        #expect(accounts.savedPreferences(for: "alice") == accounts.defaults)
    }

    @Test func eachFamilyHasItsOwnSession() {
        let first = ApplicationAssembly()
        let second = ApplicationAssembly()
        let session = first.core.userSession
        #expect(second.core.userSession !== session)
        second.reset(.session)
        #expect(first.core.userSession === session)
        #expect(first.core.accountStore.savedPreferences(for: "guest") == nil)
    }

    @Test func switchingUsersRewiresTheAppDelegate() throws {
        let application = ApplicationAssembly()
        let delegate = application.inject(AppDelegate(arguments: Arguments(usersToSwitchTo: ["alice"])))
        let guestSession = try #require(delegate.session)
        let guestRoot = try #require(delegate.rootController)
        let theme = delegate.theme

        _ = delegate.run()

        let aliceSession = try #require(delegate.session)
        #expect(aliceSession.user == "alice")
        #expect(aliceSession !== guestSession)
        #expect(delegate.cityStore === aliceSession.cityStore)
        #expect(delegate.rootController !== guestRoot)
        #expect(delegate.rootController?.weatherReport?.presenter?.session === aliceSession)
        #expect(delegate.theme === theme)
        #expect(application.core.accountStore.signedInUser == "alice")
        #expect(application.core.accountStore.savedPreferences(for: "alice") == aliceSession.preferences)
    }
}
