import Assemblies
import Foundation
import Testing

// @Injected, @InjectedIfAvailable and @WeaklyInjected: properties resolved from the default family.
//
// The program-wide default (`makeDefault()`, `Assembly.removeDefault()`) is process-global state
// shared with every test running in parallel, so it is only used in exit tests, in a child process.

private class WrapperPreferences {}

private final class WrapperStagingPreferences: WrapperPreferences {}

private final class WrapperLogger {
    let name: String
    init(name: String) { self.name = name }
}

private final class WrapperSession {}

private final class WrapperCoreAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var logger: WrapperLogger {
        define(scope: .singleton) {
            counter.tick()
            return WrapperLogger(name: "core")
        }
    }
}

private class WrapperAppAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var core: WrapperCoreAssembly { collaborator() }

    var preferences: WrapperPreferences {
        define {
            counter.tick()
            return WrapperPreferences()
        }
    }

    var session: WrapperSession {
        define(scope: .prototype) {
            counter.tick()
            return WrapperSession()
        }
    }
}

private final class WrapperStagingAssembly: WrapperAppAssembly, @unchecked Sendable {
    override var preferences: WrapperPreferences { define { WrapperStagingPreferences() } }
}

private final class WrapperController {
    @Injected(\WrapperAppAssembly.preferences) var preferences: WrapperPreferences
    @Injected(\WrapperCoreAssembly.logger) var logger: WrapperLogger
}

/// Builds a controller, whose @Injected properties resolve, inside a definition body.
private final class WrapperScreen {
    let preferences: WrapperPreferences
    let controller: WrapperController
    init(preferences: WrapperPreferences, controller: WrapperController) {
        self.preferences = preferences
        self.controller = controller
    }
}

private final class WrapperScreenAssembly: WrapperAppAssembly, @unchecked Sendable {
    var screen: WrapperScreen {
        define {
            let controller = WrapperController()
            _ = controller.preferences
            return WrapperScreen(preferences: self.preferences, controller: controller)
        }
    }
}

private final class WrapperOptionalHolder {
    @InjectedIfAvailable(\WrapperAppAssembly.preferences) var preferences: WrapperPreferences?
}

private final class WrapperView {
    @WeaklyInjected(\WrapperAppAssembly.session) var session: WrapperSession?
}

@Suite struct PropertyWrapperTests {
    // MARK: @Injected

    @Test func anInjectedPropertyIsResolvedOnFirstAccessThenKept() {
        let app = WrapperAppAssembly()
        let controller = WrapperController()
        app.makeDefault {
            #expect(app.counter["preferences"] == 0, "nothing is built before the first access")
            let first = controller.preferences
            #expect(app.counter["preferences"] == 1)
            #expect(controller.preferences === first)
            #expect(controller.preferences === first)
            #expect(app.counter["preferences"] == 1, "later accesses return the same value")
            #expect(app.core.counter["logger"] == 0)
            #expect(controller.logger === app.core.logger)
            #expect(app.core.counter["logger"] == 1)
        }
        #expect(controller.preferences === controller.preferences, "the value outlives the default")
        #expect(app.counter["preferences"] == 1)
    }

    @Test func aDefaultForATaskIsSetAsynchronously() async {
        let app = WrapperAppAssembly()
        let (same, fromChild) = await app.makeDefault {
            await Task.yield()
            let controller = WrapperController()
            let logger = controller.logger
            await Task.yield()
            let fromChild = await withTaskGroup(of: Bool.self) { group in
                group.addTask { WrapperController().logger === app.core.logger }
                return await group.next() ?? false
            }
            return (logger === app.core.logger && controller.logger === logger, fromChild)
        }
        #expect(same)
        #expect(fromChild, "child tasks inherit the task's default")
        #expect(app.core.counter["logger"] == 1)
    }

    @Test func aCollaboratorRootTypeResolvesThroughTheDefaultFamily() {
        let app = WrapperAppAssembly()
        let other = WrapperAppAssembly()
        let logger = app.makeDefault { WrapperController().logger }
        #expect(logger === app.core.logger)
        #expect(logger !== other.core.logger)
        #expect(logger.name == "core")
    }

    @Test func aSuperclassRootTypeResolvesThroughTheDefaultFamily() {
        let staging = WrapperStagingAssembly()
        let preferences = staging.makeDefault { WrapperController().preferences }
        #expect(preferences is WrapperStagingPreferences)
    }

    @Test func parallelTasksEachResolveFromTheirOwnDefault() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let app = WrapperAppAssembly()
                    return await app.makeDefault {
                        var mismatches = 0
                        for _ in 0..<200 {
                            if WrapperController().logger !== app.core.logger { mismatches += 1 }
                            await Task.yield()
                        }
                        return mismatches
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func theTasksOverridesTakeEffect() {
        let app = WrapperAppAssembly()
        let overrides = Overrides(of: app)
        overrides.replace(\.core.logger) { WrapperLogger(name: "double") }
        app.makeDefault {
            let production = WrapperController()
            #expect(production.logger.name == "core")
            overrides.apply {
                let controller = WrapperController()
                #expect(controller.logger.name == "double")
                #expect(controller.logger === app.core.logger)
                #expect(production.logger.name == "core", "a property already resolved keeps its value")
            }
            #expect(WrapperController().logger.name == "core")
        }
        let outside = overrides.apply { app.makeDefault { WrapperController().logger } }
        #expect(outside.name == "double")
    }

    @Test func assigningThePropertiesReplacesTheirValues() {
        let app = WrapperAppAssembly()
        let preferences = WrapperPreferences()
        let session = WrapperSession()
        let controller = WrapperController()
        let holder = WrapperOptionalHolder()
        let view = WrapperView()
        controller.preferences = preferences
        holder.preferences = preferences
        view.session = session
        app.makeDefault {
            #expect(controller.preferences === preferences)
            #expect(holder.preferences === preferences)
            #expect(view.session === session)
            let resolved = controller.logger
            let replacement = WrapperLogger(name: "assigned")
            controller.logger = replacement
            #expect(controller.logger === replacement)
            #expect(controller.logger !== resolved)
        }
        #expect(app.counter["preferences"] == 0, "an assigned property is never resolved")
        #expect(app.counter["session"] == 0)
    }

    // MARK: @InjectedIfAvailable

    @Test func injectedIfAvailableResolvesOnceADefaultIsSetThenKeepsIt() {
        let app = WrapperAppAssembly()
        let holder = WrapperOptionalHolder()
        let resolved = app.makeDefault { holder.preferences }
        #expect(resolved != nil)
        #expect(holder.preferences === resolved)
        #expect(WrapperAppAssembly().makeDefault { holder.preferences } === resolved)
        #expect(app.counter["preferences"] == 1)
    }

    @Test func injectedIfAvailableIsNilWithoutADefault() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let holder = WrapperOptionalHolder()
            precondition(holder.preferences == nil, "nil while no family is the default")
            precondition(holder.preferences == nil, "still nil on the next access")
            let app = WrapperAppAssembly()
            let resolved = app.makeDefault { holder.preferences }
            precondition(resolved != nil, "resolved once a default is set")
            precondition(app.counter["preferences"] == 1)
            precondition(holder.preferences === resolved, "kept after the default is gone")
        }
        #expect(!stderr(of: result).contains("Precondition failed"), "\(stderr(of: result))")
    }

    // MARK: @WeaklyInjected

    @Test func weaklyInjectedDoesNotKeepTheInstanceAlive() {
        let app = WrapperAppAssembly()
        let view = WrapperView()
        app.makeDefault {
            #expect(app.counter["session"] == 0, "nothing is built before the first access")
            var held = view.session
            #expect(held != nil)
            #expect(view.session === held)
            #expect(app.counter["session"] == 1)
            held = nil
            #expect(held == nil)
            #expect(view.session == nil, "released once nothing else holds it")
            #expect(view.session == nil)
            #expect(app.counter["session"] == 1, "it isn't resolved again")
        }
    }

    // MARK: The program-wide default

    @Test func makeDefaultAndRemoveDefaultForTheProgram() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let app = WrapperAppAssembly()
            app.makeDefault()
            let controller = WrapperController()
            precondition(controller.logger === app.core.logger, "resolved from the program-wide default")
            precondition(WrapperOptionalHolder().preferences != nil)
            let other = WrapperAppAssembly()
            other.makeDefault {
                precondition(WrapperController().logger === other.core.logger, "a task's default comes first")
            }
            precondition(WrapperController().logger === app.core.logger)
            Assembly.removeDefault()
            precondition(WrapperOptionalHolder().preferences == nil, "no default after removeDefault()")
            precondition(controller.logger === app.core.logger, "a resolved property keeps its value")
        }
        #expect(!stderr(of: result).contains("Precondition failed"), "\(stderr(of: result))")
    }

    @Test func readingInjectedWithoutADefaultStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WrapperController().preferences
        }
        let message = stderr(of: result)
        #expect(message.contains("@Injected(\\WrapperAppAssembly.…) was read as WrapperPreferences"))
        #expect(message.contains("no family of assemblies is the default"))
        #expect(message.contains("makeDefault()"))
    }

    @Test func readingInjectedAfterRemoveDefaultStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = WrapperAppAssembly()
            app.makeDefault()
            _ = WrapperController().logger
            Assembly.removeDefault()
            _ = WrapperController().logger
        }
        let message = stderr(of: result)
        #expect(message.contains("@Injected(\\WrapperCoreAssembly.…) was read as WrapperLogger"))
        #expect(message.contains("makeDefault()"))
    }

    @Test func readingWeaklyInjectedWithoutADefaultStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WrapperView().session
        }
        let message = stderr(of: result)
        #expect(message.contains("was read as WrapperSession"))
        #expect(message.contains("no family of assemblies is the default"))
    }

    @Test func aPropertyReadInsideADefinitionBodyIsATopLevelReadOfItsOwn() {
        let app = WrapperScreenAssembly()
        app.makeDefault {
            let screen = app.screen
            #expect(screen.controller.preferences !== screen.preferences)
            #expect(app.counter["preferences"] == 2)
        }
    }
}
