/// How the program's screens look: the characters that frame a panel and mark the current city.
///
/// One theme is chosen per run and every screen uses it, so ``ThemeAssembly`` makes the current
/// theme a singleton.
final class Theme {
    /// The theme's name, such as "Beach".
    let name: String
    /// The character of a panel's top and bottom edges.
    let horizontal: Character
    /// The character of a panel's left and right edges.
    let vertical: Character
    /// The character at a panel's corners.
    let corner: Character
    /// What marks the current city in a list.
    let marker: Character

    /// Creates a theme.
    init(name: String, horizontal: Character, vertical: Character, corner: Character, marker: Character) {
        self.name = name
        self.horizontal = horizontal
        self.vertical = vertical
        self.corner = corner
        self.marker = marker
    }
}
