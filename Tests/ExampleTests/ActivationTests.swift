import Testing

@testable import Example

@Suite struct ActivationTests {
    @Test func activationBuildsTheWeatherClientBeforeAnyScreenReadsIt() {
        let application = RecordingApplicationAssembly()
        #expect(application.builds.names.isEmpty)
        application.activate()
        #expect(application.builds.names == ["weatherClient"])

        _ = application.inject(AppDelegate(arguments: Arguments())).run()
        application.activate()
        #expect(application.builds.names == ["weatherClient"])
    }

    @Test func anAssemblyThatIsNotActivatedBuildsTheClientOnFirstRead() {
        let application = RecordingApplicationAssembly()
        _ = application.themes.currentTheme
        #expect(application.builds.names.isEmpty)
        _ = application.viewControllers.rootController
        #expect(application.builds.names == ["weatherClient"])
    }
}
