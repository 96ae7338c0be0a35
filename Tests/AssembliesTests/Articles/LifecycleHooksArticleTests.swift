import Assemblies
import Testing

// The code blocks of the article *Running Code When Objects Are Finished*, each verbatim
// (`.ci/run docs` checks them), with what they need around them.

@Suite("Running Code When Objects Are Finished")
struct LifecycleHooksArticle {
    final class Database {
        let path: String
        private(set) var isMigrated = false
        init(path: String) { self.path = path }
        func migrate() { isMigrated = true }
    }

    final class StorageAssembly: Assembly, @unchecked Sendable {
        let path = "/tmp/app.sqlite"

        var database: Database {
            define(scope: .singleton) { definition in
                definition.afterWiring { database in database.migrate() }
                return Database(path: self.path)
            }
        }
    }

    struct House {
        final class Owner {
            var pet: Pet?
        }

        final class Pet {
            weak var owner: Owner?
            var toy: Toy?
        }

        final class Toy {}

        final class HouseAssembly: Assembly, @unchecked Sendable {
            var owner: Owner {
                define { definition in
                    let owner = definition *~> Owner()
                    definition.afterWiring { _ in print("owner wired") }
                    definition.afterAllInjections { _ in print("owner complete") }
                    owner.pet = self.pet
                    return owner
                }
            }

            var pet: Pet {
                define { definition in
                    let pet = definition *~> Pet()
                    definition.afterWiring { pet in
                        print("pet wired; owner.pet set: \(pet.owner?.pet != nil)")
                    }
                    definition.afterAllInjections { pet in
                        print("pet complete; owner.pet set: \(pet.owner?.pet != nil)")
                    }
                    pet.owner = self.owner
                    pet.toy = self.toy
                    return pet
                }
            }

            var toy: Toy {
                define(scope: .prototype) { definition in
                    definition.afterWiring { _ in print("toy wired") }
                    definition.afterAllInjections { _ in print("toy complete") }
                    return Toy()
                }
            }
        }

        func visitTheHouse() {
            _ = HouseAssembly().owner
        }
    }

    struct Tree {
        final class Parent {
            let child: Child
            init(child: Child) { self.child = child }
        }

        final class Child {
            weak var parent: Parent?
        }

        final class TreeAssembly: Assembly, @unchecked Sendable {
            var parent: Parent { define { Parent(child: self.child) } }

            var child: Child {
                define { definition in
                    let child = Child()
                    definition.afterAllInjections { child in child.parent = self.parent }
                    return child
                }
            }
        }

        let parent = TreeAssembly().parent  // parent.child.parent === parent
    }

    @Test func theDatabaseIsMigratedOnceWired() {
        #expect(StorageAssembly().database.isMigrated)
    }

    @Test func hooksRunInTheOrderTheArticleShows() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            House().visitTheHouse()
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        #expect(
            output == """
                toy wired
                pet wired; owner.pet set: false
                owner wired
                toy complete
                pet complete; owner.pet set: true
                owner complete

                """
        )
    }

    @Test func aStepClosesTheCycleThroughAnInitializer() {
        let tree = Tree()
        #expect(tree.parent.child.parent === tree.parent)
    }
}
