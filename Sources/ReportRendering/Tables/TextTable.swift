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
    /// Left-aligned columns never shortened to fit a terminal.
    ///
    /// Figures written with their unit or as a list (`2098 MB (51.2 % of RAM)`) would say something else once cut.
    /// Right-aligned columns are never shortened either.
    package var wholeColumns: Set<Int> = []

    package init(headers: [String], alignments: [Alignment]) {
        self.headers = headers
        self.alignments = alignments
    }

    /// Cells are report content (process names, symbols, hosts): escaped (``TerminalText``) so that a control
    /// character shows as an escape, and the column widths are those of what is shown.
    package mutating func append(_ row: [String]) { rows.append(row.map(TerminalText.escaped)) }

    /// The table as lines, none wider than `width` columns (``TableWidth/shared`` unless given; nil prints every
    /// cell whole).
    ///
    /// When the table is wider, the widest left-aligned column is narrowed first, and its long cells are shortened
    /// in the middle (``shortened(_:toWidth:)``): the left-aligned columns hold the free text (signatures, paths,
    /// names) whose two ends say the most, while right-aligned ones hold numbers, which are never cut. A column is
    /// never narrower than its heading nor than ``narrowestShortenedColumn``. A table of many numeric columns that
    /// still does not fit is printed in bands of columns, one after the other, each led by the first column (the
    /// row's name), as R and pandas print a wide frame: every figure whole, every line within the width.
    package func render(indent: String = "", width: Int? = TableWidth.shared.limit) -> String {
        let natural = naturalWidths()
        guard let width else { return render(columns: Array(headers.indices), widths: natural, indent: indent) }
        let all = Array(headers.indices)
        let fitted = Self.fitted(
            natural,
            headers: headers,
            alignments: alignments,
            whole: wholeColumns,
            indent: indent,
            width: width
        )
        guard Self.lineWidth(fitted, indent: indent) > width, headers.count > 2 else {
            return render(columns: all, widths: fitted, indent: indent)
        }
        return bands(natural, indent: indent, width: width).map { columns in
            let widths = Self.fitted(
                columns.map { natural[$0] },
                headers: columns.map { headers[$0] },
                alignments: columns.map { $0 < alignments.count ? alignments[$0] : .left },
                whole: Set(columns.indices.filter { wholeColumns.contains(columns[$0]) }),
                indent: indent,
                width: width
            )
            return render(columns: columns, widths: widths, indent: indent)
        }.joined(separator: "\n")
    }

    /// The widest cell of each column, heading included.
    private func naturalWidths() -> [Int] {
        var widths = headers.map(Self.displayWidth)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], Self.displayWidth(cell))
            }
        }
        return widths
    }

    /// The columns of each band: the key column (the first left-aligned one: a name, a signature, a host), then
    /// as many of the others, in order, as fit whole beside it; a column too wide even alone has a band of its own,
    /// where it is shortened.
    private func bands(_ natural: [Int], indent: String, width: Int) -> [[Int]] {
        let key = natural.indices.first { (($0 < alignments.count ? alignments[$0] : .left) == .left) } ?? 0
        let start = Self.displayWidth(indent) + natural[key]
        var bands: [[Int]] = []
        var band: [Int] = []
        var used = start
        for column in natural.indices where column != key {
            if !band.isEmpty, used + 2 + natural[column] > width {
                bands.append(band)
                band = []
                used = start
            }
            band.append(column)
            used += 2 + natural[column]
        }
        if !band.isEmpty { bands.append(band) }
        // The key leads every band, and stays in its place in the first, where the columns before it are.
        return bands.enumerated().map { number, band in
            number == 0 ? (band + [key]).sorted() : [key] + band
        }
    }

    private static func lineWidth(_ widths: [Int], indent: String) -> Int {
        displayWidth(indent) + widths.reduce(0, +) + 2 * max(0, widths.count - 1)
    }

    /// The lines of `columns` (indices into every row), each column `widths[k]` wide.
    private func render(columns: [Int], widths: [Int], indent: String) -> String {
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            let shownColumns = columns.filter { $0 < cells.count }
            for (k, column) in shownColumns.enumerated() where k < widths.count {
                let cell = Self.shortened(cells[column], toWidth: widths[k])
                let padding = String(repeating: " ", count: max(0, widths[k] - Self.displayWidth(cell)))
                let isLast = k == shownColumns.count - 1
                switch column < alignments.count ? alignments[column] : .left {
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

    /// The narrowest a shortened column gets: room for a few characters on each side of the marker.
    package static let narrowestShortenedColumn = 12

    /// The marker put where the middle of a long cell was left out.
    package static let shorteningMarker = "\u{2026}"

    /// `widths` narrowed, widest left-aligned column first, until a line (indent and two-space gaps included)
    /// takes at most `width` columns or no column can give more.
    static func fitted(
        _ widths: [Int],
        headers: [String],
        alignments: [Alignment],
        whole: Set<Int> = [],
        indent: String,
        width: Int
    ) -> [Int] {
        var widths = widths
        let gaps = 2 * max(0, widths.count - 1)
        var excess = displayWidth(indent) + gaps + widths.reduce(0, +) - width
        let floors = widths.indices.map { i in
            max(i < headers.count ? displayWidth(headers[i]) : 0, narrowestShortenedColumn)
        }
        while excess > 0 {
            let candidates = widths.indices.filter { i in
                (i < alignments.count ? alignments[i] : .left) == .left && !whole.contains(i) && widths[i] > floors[i]
            }
            // The widest free-text column alone gives up its room, down to its floor before another is touched: one
            // cut column reads better than several nibbled ones.
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            let cut = min(excess, widths[widest] - floors[widest])
            widths[widest] -= cut
            excess -= cut
        }
        return widths
    }

    /// `cell` in at most `width` columns: whole when it fits, else its start and end around
    /// ``shorteningMarker``.
    ///
    /// Cells are already escaped (``TerminalText``): an escape such as `\x1b` or `\u{202e}` is kept or left out
    /// whole, as is every character (a grapheme cluster, so an emoji or an accented letter is never split), so
    /// what is shown still says what the file held.
    package static func shortened(_ cell: String, toWidth width: Int) -> String {
        // An SGR code counts a column here and none below: a cell that fits by this count fits.
        guard displayWidth(cell) > width else { return cell }
        let units = shownUnits(cell)
        guard units.reduce(0, { $0 + $1.width }) > width else { return cell }
        let room = max(0, width - displayWidth(shorteningMarker))
        let headRoom = (room + 1) / 2
        var head = ""
        var used = 0
        var first = 0
        while first < units.count, used + units[first].width <= headRoom {
            head += units[first].text
            used += units[first].width
            first += 1
        }
        var tail: [String] = []
        var last = units.count
        var tailUsed = 0
        while last > first, used + tailUsed + units[last - 1].width <= room {
            tail.append(units[last - 1].text)
            tailUsed += units[last - 1].width
            last -= 1
        }
        // The colour codes of the part left out stay, so a colour still ends where it did.
        let codes = units[first..<last].filter { $0.width == 0 && $0.text.hasPrefix("\u{1B}[") }.map(\.text)
        return head + shorteningMarker + codes.joined() + tail.reversed().joined()
    }

    /// The pieces of an escaped cell that are cut whole: an escape that ``TerminalText`` writes, or a character.
    private static func shownUnits(_ cell: String) -> [(text: String, width: Int)] {
        var units: [(text: String, width: Int)] = []
        var rest = Substring(cell)
        while let first = rest.first {
            var length = 1
            var width: Int?
            if first == "\u{1B}", rest.dropFirst().first == "[",
                let end = rest.prefix(32).firstIndex(of: "m")
            {
                // An SGR code of `--color`: no column, never cut.
                length = rest.distance(from: rest.startIndex, to: end) + 1
                width = 0
            } else if first == "\\" {
                let after = rest.dropFirst()
                if after.first == "x", after.dropFirst().prefix(2).count == 2,
                    after.dropFirst().prefix(2).allSatisfy(\.isHexDigit)
                {
                    length = 4
                } else if let letter = after.first, letter == "n" || letter == "r" || letter == "t" {
                    length = 2
                } else if after.first == "u", after.dropFirst().first == "{",
                    let close = after.prefix(12).firstIndex(of: "}")
                {
                    length = 1 + after.distance(from: after.startIndex, to: close) + 1
                }
            }
            let unit = String(rest.prefix(length))
            units.append((unit, width ?? displayWidth(unit)))
            rest = rest.dropFirst(length)
        }
        return units
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
        // Most text is ASCII: a column a byte (a `\r\n` pair is one `Character`), without the grapheme breaks and
        // Unicode property look-ups below, which made fitting `scan`'s lines a twentieth of its work.
        var asciiWidth = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            guard byte < 0x80 else {
                asciiWidth = -1
                break
            }
            if byte != 0x0A || previous != 0x0D { asciiWidth += 1 }
            previous = byte
        }
        if asciiWidth >= 0 { return asciiWidth }
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
