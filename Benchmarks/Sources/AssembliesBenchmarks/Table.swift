// The one table the benchmark prints, and the number formats in it.

/// A plain-text table with a header, aligned columns and separator lines.
struct Table {
    let header: [String]
    private var rows: [[String]?] = []  // nil: a separator

    init(header: [String]) {
        self.header = header
    }

    mutating func add(_ cells: [String]) {
        precondition(cells.count == header.count, "a row needs \(header.count) cells")
        rows.append(cells)
    }

    /// Adds a separator line, unless the table is empty or already ends with one.
    mutating func addSeparator() {
        if let last = rows.last, last != nil {
            rows.append(nil)
        }
    }

    var rendered: String {
        let widths = header.indices.map { column in
            rows.reduce(header[column].count) { width, row in max(width, row?[column].count ?? 0) }
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            .joined(separator: " │ ")
        }
        let separator = widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")
        return ([line(header), separator] + rows.map { $0.map(line) ?? separator }).joined(separator: "\n")
    }
}

enum Format {
    /// `1,234` or `12.3`: nanoseconds, bytes, counts.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "?" }
        if abs(value) < 100 && value != value.rounded() {
            return decimal(value, digits: 1)
        }
        return grouped(Int(value.rounded()))
    }

    /// `1.23×`, `45.6×`, `123×`.
    static func ratio(_ value: Double) -> String {
        plain(value) + "×"
    }

    /// `1.23× (1.10–1.52)`.
    static func ratio(_ summary: Summary) -> String {
        "\(ratio(summary.median)) (\(plain(summary.minimum))–\(plain(summary.maximum)))"
    }

    /// An allocation count per operation: whole when it is whole.
    static func count(_ value: Double) -> String {
        abs(value - value.rounded()) < 0.005 ? grouped(Int(value.rounded())) : decimal(value, digits: 2)
    }

    static func check(_ met: Bool) -> String {
        met ? "✓" : "✗ MISSED"
    }

    private static func plain(_ value: Double) -> String {
        if value < 10 { return decimal(value, digits: 2) }
        if value < 100 { return decimal(value, digits: 1) }
        return grouped(Int(value.rounded()))
    }

    private static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        let padded = String(repeating: "0", count: digits - fraction.count) + fraction
        return (value < 0 ? "-" : "") + grouped(scaled / scale) + "." + padded
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}
