import Testing

@testable import Example

@Suite struct PanelTests {
    let theme = Theme(name: "Test", horizontal: "-", vertical: "|", corner: "+", marker: "*")

    @Test func drawsAFramedBoxAsWideAsItsWidestRow() {
        let panel = Panel(theme: theme, minimumWidth: 10)
        panel.clear(title: "Title")
        panel.add("one")
        panel.add("a longer row")
        #expect(
            panel.drawn == [
                "+- Title ------+",
                "| one          |",
                "| a longer row |",
                "+--------------+",
            ]
        )
    }

    @Test func keepsItsMinimumWidth() {
        let panel = Panel(theme: theme, minimumWidth: 6)
        panel.clear(title: "")
        panel.add("ab")
        #expect(panel.drawn == ["+--------+", "| ab     |", "+--------+"])
    }

    @Test func clearingStartsOver() {
        let panel = Panel(theme: theme)
        panel.clear(title: "First")
        panel.add("old row")
        panel.clear(title: "Second")
        #expect(!panel.drawn.contains { $0.contains("old row") })
    }
}
