import APMInspectCore

/// Renders rows as aligned columns for a terminal.
package struct TextTable {
    package enum Alignment {
        case left
        case right
    }

    package var headers: [String]
    package var alignments: [Alignment]
    package var rows: [[String]] = []

    package init(headers: [String], alignments: [Alignment]) {
        self.headers = headers
        self.alignments = alignments
    }

    /// Cells are report content (process names, symbols, hosts): escaped (``TerminalText``) so that a control
    /// character shows as an escape, and the column widths are those of what is shown.
    package mutating func append(_ row: [String]) { rows.append(row.map(TerminalText.escaped)) }

    package func render(indent: String = "") -> String {
        var widths = headers.map(Self.displayWidth)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], Self.displayWidth(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() where i < widths.count {
                let padding = String(repeating: " ", count: max(0, widths[i] - Self.displayWidth(cell)))
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

extension TextTable {
    /// The columns `text` takes on a terminal: two for a wide character (CJK, Hangul, fullwidth forms, emoji),
    /// none for a combining mark or a zero-width format character, one otherwise.
    ///
    /// Counting characters would misalign every column after a Japanese or Chinese app name, common in this
    /// field's data. The ranges are Unicode's East Asian Wide and Fullwidth blocks (UAX #11), which the standard
    /// library does not expose.
    package static func displayWidth(_ text: String) -> Int {
        var width = 0
        for character in text {
            width += displayWidth(of: character)
        }
        return width
    }

    package static func displayWidth(of character: Character) -> Int {
        var visible = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: visible = true
            }
        }
        return visible ? 1 : 0
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
