import Assemblies
import Testing

// The code blocks of the article *Resolving Circular Dependencies*, each verbatim (`.ci/run docs`
// checks them), with what they need around them.

@Suite("Resolving Circular Dependencies")
struct CircularDependenciesArticle {
    enum Knights {
        final class Knight {
            var quest: Quest?
        }

        final class Quest {
            weak var knight: Knight?
        }

        final class KnightsAssembly: Assembly, @unchecked Sendable {
            var quests: QuestsAssembly { collaborator() }

            var knight: Knight {
                define { definition in
                    let knight = definition *~> Knight()  // registered before wiring
                    knight.quest = self.quests.quest
                    return knight
                }
            }
        }

        final class QuestsAssembly: Assembly, @unchecked Sendable {
            var knights: KnightsAssembly { collaborator() }

            var quest: Quest {
                define { definition in
                    let quest = definition *~> Quest()
                    quest.knight = self.knights.knight  // the knight being wired: the cycle closes
                    return quest
                }
            }
        }
    }

    protocol WeatherView: AnyObject {
        var presenter: Presenter? { get set }
    }

    final class Presenter {}

    final class ConsoleWeatherView: WeatherView {
        var presenter: Presenter?
    }

    final class WeatherAssembly: Assembly, @unchecked Sendable {
        var presenter: Presenter { define { Presenter() } }

        var view: WeatherView {  // a protocol
            define { definition in
                let view = definition *~> ConsoleWeatherView()  // a ConsoleWeatherView
                view.presenter = self.presenter
                return view
            }
        }
    }

    enum Kingdom {
        final class King {
            var guardian: Guardian?
        }

        final class Guardian {
            weak var king: King?
        }

        final class KingdomAssembly: Assembly, @unchecked Sendable {
            var king: King {
                define(scope: .prototype) { definition in
                    let king = definition *~> King()
                    king.guardian = self.guardian
                    return king
                }
            }

            var guardian: Guardian {
                define(scope: .prototype) { definition in
                    let guardian = definition *~> Guardian()
                    guardian.king = self.king  // a back-reference from a direct dependency: this king
                    return guardian
                }
            }

            var kings: [King] { define { [self.king, self.king] } }
        }
    }

    enum InitializerCycle {
        final class Parent {
            let child: Child
            init(child: Child) { self.child = child }
        }

        final class Child {
            let parent: Parent
            init(parent: Parent) { self.parent = parent }
        }

        final class TreeAssembly: Assembly, @unchecked Sendable {
            var parent: Parent { define { Parent(child: self.child) } }
            var child: Child { define { Child(parent: self.parent) } }
        }
    }

    enum FixedTree {
        final class Parent {
            let child: Child
            init(child: Child) { self.child = child }
        }

        final class Child {
            weak var parent: Parent?
        }

        final class FixedTreeAssembly: Assembly, @unchecked Sendable {
            var parent: Parent {
                define { definition in
                    let child = Child()
                    let parent = definition *~> Parent(child: child)
                    child.parent = parent
                    return parent
                }
            }
        }

        final class DeferredTreeAssembly: Assembly, @unchecked Sendable {
            var parent: Parent { define { Parent(child: self.child) } }

            var child: Child {
                define { definition in
                    let child = Child()
                    definition.afterAllInjections { child in child.parent = self.parent }
                    return child
                }
            }
        }
    }

    @Test func theArticleSaysWhatItsCodeDoes() throws {
        let knight = Knights.KnightsAssembly().knight
        #expect(knight.quest?.knight === knight)
        #expect(WeatherAssembly().view is ConsoleWeatherView)
        let kings = Kingdom.KingdomAssembly().kings
        #expect(kings[0] !== kings[1])
        #expect(kings[0].guardian?.king === kings[0])
        let fixed = FixedTree.FixedTreeAssembly().parent
        #expect(fixed.child.parent === fixed)
        let deferred = FixedTree.DeferredTreeAssembly().parent
        #expect(deferred.child.parent === deferred)
    }

    @Test func aCycleThroughInitializersStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = InitializerCycle.TreeAssembly().parent
        }
        #expect(stderr(of: result).contains("circular dependency, read again before it was registered"))
    }
}
