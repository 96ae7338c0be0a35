import Assemblies

protocol Plugin: AnyObject {
    func process(_ text: String) -> String
}

/// A plugin's assembly: a collaborator of the host, which it reaches for what the host offers.
class PluginAssembly: Assembly, @unchecked Sendable {
    var host: EditorAssembly { collaborator() }

    /// Each plugin defines it.
    var plugin: any Plugin { fatalError("\(Self.self) must override `plugin`") }
}

final class Dictionary: Sendable {
    let words: Set<String> = ["the", "quick", "fox"]
}

final class SpellCheck: Plugin {
    let dictionary: Dictionary
    init(dictionary: Dictionary) { self.dictionary = dictionary }

    func process(_ text: String) -> String {
        text.split(separator: " ").map { dictionary.words.contains(String($0)) ? String($0) : "[\($0)]" }
            .joined(separator: " ")
    }
}

final class Shouting: Plugin {
    func process(_ text: String) -> String { text.uppercased() }
}

final class SpellCheckAssembly: PluginAssembly, @unchecked Sendable {
    override var plugin: any Plugin {
        define(scope: .singleton) { SpellCheck(dictionary: self.host.dictionary) as any Plugin }
    }
}

final class ShoutingAssembly: PluginAssembly, @unchecked Sendable {
    override var plugin: any Plugin { define(scope: .singleton) { Shouting() as any Plugin } }
}

final class EditorAssembly: Assembly, @unchecked Sendable {
    /// The plugins, in the order they run: add a plugin by adding its assembly type.
    static let pluginAssemblies: [PluginAssembly.Type] = [SpellCheckAssembly.self, ShoutingAssembly.self]

    var dictionary: Dictionary { define(scope: .singleton) { Dictionary() } }

    var plugins: [any Plugin] {
        define(scope: .singleton) { Self.pluginAssemblies.map { self.collaborator($0).plugin } }
    }
}
