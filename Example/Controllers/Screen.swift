/// The terminal, as the screens see it: the lines they have written, in order.
///
/// Every controller of one running app writes to the same screen, so it has the object-graph
/// scope: one per app, shared by everything built with it.
final class Screen {
    /// The lines written so far.
    private(set) var lines: [String] = []

    /// Writes `lines` below what is already there.
    func write(_ lines: [String]) {
        self.lines += lines
    }

    /// Writes an empty line, to separate what comes before from what comes after.
    func skipLine() {
        lines.append("")
    }
}
