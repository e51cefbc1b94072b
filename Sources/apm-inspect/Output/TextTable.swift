import APMInspectCore

/// Renders rows as aligned columns for a terminal.
struct TextTable {
    enum Alignment {
        case left
        case right
    }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(headers: [String], alignments: [Alignment]) {
        self.headers = headers
        self.alignments = alignments
    }

    /// Cells are report content (process names, symbols, hosts): escaped (``TerminalText``) so that a control
    /// character shows as an escape, and the column widths are those of what is shown.
    mutating func append(_ row: [String]) { rows.append(row.map(TerminalText.escaped)) }

    func render(indent: String = "") -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() where i < widths.count {
                let padding = String(repeating: " ", count: max(0, widths[i] - cell.count))
                let isLast = i == cells.count - 1
                switch i < alignments.count ? alignments[i] : .left {
                case .left: parts.append(isLast ? cell : cell + padding)
                case .right: parts.append(padding + cell)
                }
            }
            return indent + parts.joined(separator: "  ")
        }
        var out = line(headers) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }
}
