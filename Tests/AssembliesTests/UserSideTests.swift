import Assemblies
import Testing

// How a user's code is written: `final class …: Assembly, @unchecked Sendable` compiles without
// warnings in Swift 6 mode, can be shared across tasks and actors, and defines @MainActor types.

@MainActor
final class ScreenModel {
    var title = "Forecast"
    var service: WeatherService?
    var presenter: ScreenPresenter?
}

@MainActor
final class ScreenPresenter {
    var model: ScreenModel?
}

final class WeatherService: Sendable {}

final class UserSideAppAssembly: Assembly, @unchecked Sendable {
    var service: WeatherService { define(scope: .singleton) { WeatherService() } }

    @MainActor var screenModel: ScreenModel {
        define { definition in
            let model = definition *~> ScreenModel()
            model.service = self.service
            model.presenter = self.screenPresenter
            return model
        }
    }

    @MainActor var screenPresenter: ScreenPresenter {
        define { definition in
            let presenter = definition *~> ScreenPresenter()
            presenter.model = self.screenModel
            return presenter
        }
    }
}

private actor ServiceReader {
    let assembly: UserSideAppAssembly
    init(assembly: UserSideAppAssembly) { self.assembly = assembly }
    func read() -> ObjectIdentifier { ObjectIdentifier(assembly.service) }
}

private func requireSendable<T: Sendable>(_: T.Type) -> Bool { true }

@Suite struct UserSideTests {
    @Test func aUserAssemblyIsSendable() {
        #expect(requireSendable(UserSideAppAssembly.self))
    }

    @Test func anAssemblyIsSharedAcrossTasksAndActors() async {
        let assembly = UserSideAppAssembly()
        let fromTask = await Task.detached { ObjectIdentifier(assembly.service) }.value
        let fromActor = await ServiceReader(assembly: assembly).read()
        #expect(fromTask == fromActor)
        #expect(fromTask == ObjectIdentifier(assembly.service))
    }

    @Test @MainActor func mainActorDefinitionsWork() {
        let assembly = UserSideAppAssembly()
        let model = assembly.screenModel
        #expect(model.presenter?.model === model)
        #expect(model.service === assembly.service)
    }

    @Test func mainActorDefinitionsAreReadFromTheMainActor() async {
        let assembly = UserSideAppAssembly()
        let title = await MainActor.run { assembly.screenModel.title }
        #expect(title == "Forecast")
    }
}
