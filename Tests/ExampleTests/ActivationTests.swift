import Foundation
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

    @Test func anAsyncActivationAlsoLocatesTheDeviceOnce() async throws {
        let application = ApplicationAssembly()
        try await application.activate()
        let location = await application.deviceLocation
        #expect(location == DeviceLocation(city: "Madrid"))
        let graph = await application.recordGraph {
            _ = await application.deviceLocation
            try? await application.activate()
        }
        #expect(graph.nodes.map(\.definition.member) == ["deviceLocation"], "the cached singleton, built before")
    }

    @Test func tasksThatAskTogetherShareOneLocation() async {
        let application = LocatingApplicationAssembly()
        await withTaskGroup(of: DeviceLocation.self) { group in
            for _ in 0..<20 { group.addTask { await application.deviceLocation } }
            for await location in group { #expect(location.city == "Madrid") }
        }
        #expect(application.locates.value == 1)
    }
}

/// The program's assemblies, counting how many times the device is located.
private final class LocatingApplicationAssembly: ApplicationAssembly, @unchecked Sendable {
    // @unchecked: `locates` is locked.
    final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }

    let locates = Count()

    override var deviceLocation: DeviceLocation {
        get async {
            await define(scope: .singleton) {
                self.locates.increment()
                return await self.locator.locate()
            }
        }
    }
}
