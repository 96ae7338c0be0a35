// A wrapped property is read from getters that can't mutate — a SwiftUI view's `body` — and a
// `Sendable` value makes the wrapper `Sendable`.
// expect: compiles
import Assemblies

final class Presenter: Sendable {
    let title = "Forecast"
}

final class AppAssembly: Assembly, @unchecked Sendable {
    var presenter: Presenter { define(scope: .singleton) { Presenter() } }
}

struct ForecastView: Sendable {
    @Injected(\AppAssembly.presenter) var presenter: Presenter
    @InjectedIfAvailable(\AppAssembly.presenter) var optionalPresenter: Presenter?
    @WeaklyInjected(\AppAssembly.presenter) var weakPresenter: Presenter?

    var body: String { presenter.title + (optionalPresenter?.title ?? "") + (weakPresenter?.title ?? "") }
}

func show(_ view: ForecastView) async -> String {
    await Task.detached { view.body }.value
}
