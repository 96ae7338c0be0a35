import Assemblies
import Testing

private final class WeakEditor {
    var text = ""
}

private final class WeakPane {
    let editor: WeakEditor
    init(editor: WeakEditor) { self.editor = editor }
}

private final class WeakWindow {
    let left: WeakPane
    let right: WeakPane
    init(left: WeakPane, right: WeakPane) {
        self.left = left
        self.right = right
    }
}

/// Points at the editor without keeping it alive.
private final class WeakWatcher {
    weak var editor: WeakEditor?
}

/// What a top-level read saw of the editor while it was resolving.
private struct WeakSighting {
    let bothWatchersSawAnEditor: Bool
    let bothWatchersSawTheSameEditor: Bool
}

/// A weak singleton that nothing outside the framework holds: its spoke points back weakly.
private final class WeakHub {
    weak var spoke: WeakSpoke?
}

private final class WeakSpoke {
    weak var hub: WeakHub?
    var hubWasAliveAtTheEndOfTheBody = false
    var secondReadGaveTheSameHub = false
}

private protocol WeakDocument: AnyObject {
    var title: String { get set }
}

private final class WeakPage: WeakDocument {
    var title = "untitled"
}

private struct WeakSettings {
    var fontSize = 12
}

private final class WeakEditorAssembly: Assembly, @unchecked Sendable {
    let counter = Counter()

    var editor: WeakEditor {
        define(scope: .weakSingleton) {
            counter.tick()
            return WeakEditor()
        }
    }

    var leftPane: WeakPane { define { WeakPane(editor: self.editor) } }
    var rightPane: WeakPane { define { WeakPane(editor: self.editor) } }
    var window: WeakWindow { define { WeakWindow(left: self.leftPane, right: self.rightPane) } }

    var firstWatcher: WeakWatcher {
        define {
            let watcher = WeakWatcher()
            watcher.editor = self.editor
            return watcher
        }
    }

    var secondWatcher: WeakWatcher {
        define {
            let watcher = WeakWatcher()
            watcher.editor = self.editor
            return watcher
        }
    }

    var sighting: WeakSighting {
        define {
            let first = self.firstWatcher
            let second = self.secondWatcher
            return WeakSighting(
                bothWatchersSawAnEditor: first.editor != nil && second.editor != nil,
                bothWatchersSawTheSameEditor: first.editor === second.editor
            )
        }
    }

    var hub: WeakHub {
        define(scope: .weakSingleton) { definition in
            counter.tick()
            let hub = definition *~> WeakHub()
            hub.spoke = self.intentionallyCaptive(self.spoke)  // the cycle's other half, kept on purpose
            return hub
        }
    }

    var spoke: WeakSpoke {
        define { definition in
            let spoke = definition *~> WeakSpoke()
            spoke.hub = self.hub
            _ = self.window  // more of the graph resolves while only the graph holds the hub
            spoke.secondReadGaveTheSameHub = self.hub === spoke.hub
            spoke.hubWasAliveAtTheEndOfTheBody = spoke.hub != nil
            return spoke
        }
    }

    var document: any WeakDocument {
        define(scope: .weakSingleton) {
            counter.tick()
            return WeakPage()
        }
    }

    var registeredDocument: any WeakDocument {
        define(scope: .weakSingleton) { definition in
            counter.tick()
            let page = definition *~> WeakPage()
            page.title = "registered"
            return page
        }
    }
}

private final class WeakValueAssembly: Assembly, @unchecked Sendable {
    var settings: WeakSettings { define(scope: .weakSingleton) { WeakSettings() } }
}

@Suite struct WeakSingletonTests {
    @Test func isSharedWhileSomethingOutsideHoldsIt() {
        let assembly = WeakEditorAssembly()
        let editor = assembly.editor
        #expect(assembly.editor === editor)
        #expect(assembly.editor === editor)
        #expect(assembly.counter["editor"] == 1)
    }

    @Test func isSharedAcrossGraphsAndDependents() {
        let assembly = WeakEditorAssembly()
        let editor = assembly.editor
        let window = assembly.window
        #expect(window.left.editor === editor)
        #expect(window.right.editor === editor)
        #expect(assembly.leftPane.editor === editor)
        #expect(assembly.counter["editor"] == 1)
    }

    @Test func isNotKeptAliveByTheFamily() {
        let assembly = WeakEditorAssembly()
        weak var released: WeakEditor?
        do {
            let editor = assembly.editor
            released = editor
            #expect(released != nil)
        }
        #expect(released == nil)
    }

    @Test func buildsAFreshInstanceWithFreshStateOnceReleased() {
        let assembly = WeakEditorAssembly()
        weak var released: WeakEditor?
        do {
            let editor = assembly.editor
            editor.text = "draft"
            #expect(assembly.editor.text == "draft")
            released = editor
        }
        #expect(released == nil)
        let next = assembly.editor
        #expect(next.text == "")
        #expect(assembly.counter["editor"] == 2)
        #expect(assembly.editor === next)
        #expect(assembly.counter["editor"] == 2)
    }

    @Test func aReadWhoseDependentsHoldItBuildsItOnce() {
        let assembly = WeakEditorAssembly()
        let window = assembly.window
        #expect(window.left.editor === window.right.editor)
        #expect(assembly.counter["editor"] == 1)
    }

    @Test func theGraphKeepsItAliveWhileOnlyTheFrameworkHoldsIt() {
        let assembly = WeakEditorAssembly()
        let sighting = assembly.sighting
        #expect(sighting.bothWatchersSawAnEditor)
        #expect(sighting.bothWatchersSawTheSameEditor)
        #expect(assembly.counter["editor"] == 1)
    }

    @Test func aWeakSingletonReferredToOnlyWeaklySurvivesUntilTheReadReturns() {
        let assembly = WeakEditorAssembly()
        let spoke = assembly.spoke
        #expect(spoke.hubWasAliveAtTheEndOfTheBody)
        #expect(spoke.secondReadGaveTheSameHub)
        #expect(assembly.counter["hub"] == 1)
        #expect(spoke.hub == nil)
    }

    @Test func worksForAClassBoundProtocol() {
        let assembly = WeakEditorAssembly()
        weak var released: (any WeakDocument)?
        do {
            let document = assembly.document
            document.title = "notes"
            #expect(assembly.document === document)
            #expect(assembly.document.title == "notes")
            released = document
        }
        #expect(released == nil)
        #expect(assembly.document.title == "untitled")
        #expect(assembly.counter["document"] == 2)
    }

    @Test func aProtocolTypedDefinitionMayRegisterItsConcreteClass() {
        let assembly = WeakEditorAssembly()
        let document = assembly.registeredDocument
        #expect(document is WeakPage)
        #expect(document.title == "registered")
        #expect(assembly.registeredDocument === document)
        #expect(assembly.counter["registeredDocument"] == 1)
    }

    @Test func belongsToOneFamily() {
        let first = WeakEditorAssembly()
        let second = WeakEditorAssembly()
        let firstEditor = first.editor
        let secondEditor = second.editor
        #expect(firstEditor !== secondEditor)
        #expect(first.editor === firstEditor)
        #expect(second.editor === secondEditor)
        #expect(first.counter["editor"] == 1)
        #expect(second.counter["editor"] == 1)
    }

    @Test func aValueTypeStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WeakValueAssembly().settings
        }
        let message = stderr(of: result)
        #expect(
            message.contains("WeakValueAssembly.settings is a .weakSingleton of WeakSettings, which is not a class")
        )
        #expect(message.contains("only an object can be held weakly"))
        #expect(message.contains("To fix this, use .singleton, or define a class."))
    }
}
