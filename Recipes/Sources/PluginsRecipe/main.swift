import Assemblies

let editor = EditorAssembly()
let text = editor.plugins.reduce("the quick brown fox") { text, plugin in plugin.process(text) }
print(text)
print(editor.plugins.count, "plugins, built once:", editor.plugins[0] === editor.plugins[0])
