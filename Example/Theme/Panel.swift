/// A framed box of text that a screen fills, then draws.
///
/// A panel holds the rows of the screen drawing it, so each screen needs its own:
/// ``ThemeAssembly`` makes panels prototypes.
///
/// ```swift
/// panel.clear(title: "Cities")
/// panel.add("Manila")
/// screen.write(panel.drawn)
/// ```
final class Panel {
    /// The theme the panel is drawn with.
    let theme: Theme
    /// The narrowest the panel's content is, in characters.
    let minimumWidth: Int
    private var title = ""
    private var rows: [String] = []

    /// Creates an empty panel drawn with `theme`.
    init(theme: Theme, minimumWidth: Int = 28) {
        self.theme = theme
        self.minimumWidth = minimumWidth
    }

    /// Empties the panel and gives it a new title.
    func clear(title: String) {
        self.title = title
        rows = []
    }

    /// Adds a row below the others.
    func add(_ row: String) {
        rows.append(row)
    }

    /// The panel's lines: a top edge that carries the title, the rows, and a bottom edge.
    var drawn: [String] {
        let width = max(minimumWidth, title.count + 2, rows.map(\.count).max() ?? 0)
        let corner = String(theme.corner)
        let vertical = String(theme.vertical)
        let heading = title.isEmpty ? "" : " \(title) "
        let top = corner + String(theme.horizontal) + heading + edge(width + 1 - heading.count) + corner
        let body = rows.map { row in
            "\(vertical) \(row)\(String(repeating: " ", count: width - row.count)) \(vertical)"
        }
        return [top] + body + [corner + edge(width + 2) + corner]
    }

    private func edge(_ count: Int) -> String {
        String(repeating: theme.horizontal, count: max(0, count))
    }
}
