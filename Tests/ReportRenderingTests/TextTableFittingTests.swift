import ReportRendering
import Testing

@Suite("TextTable fitting a terminal")
struct TextTableFittingTests {
    /// A crash-group table as `scan` prints it, one signature 300 columns long.
    static func groups() -> TextTable {
        var table = TextTable(
            headers: ["COUNT", "SIGNATURE", "PROCESS", "TOP FRAME"],
            alignments: [.right, .left, .left, .left]
        )
        let signature = "ThumbnailCache.entry(for:)" + String(repeating: "x", count: 248) + "closure #1 in load()"
        table.append(["12,345", signature + String(repeating: "y", count: 300 - signature.count), "Demo", "main"])
        table.append(["7", "objc_msgSend", "Demo", "-[Cache load]"])
        return table
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    @Test("a 300-column cell is shortened in the middle to fit the width", arguments: [80, 100, 132])
    func fits(width: Int) {
        let lines = Self.lines(Self.groups().render(width: width))
        #expect(lines.allSatisfy { TextTable.displayWidth($0) <= width }, "\(lines)")
        // The cut column keeps both ends, the numbers and the other columns stay whole.
        let row = lines[1]
        #expect(row.hasPrefix("12,345  ThumbnailCache.entry"))
        #expect(row.contains(TextTable.shorteningMarker))
        #expect(row.contains("yyy  Demo     main"))
        // The row whose last cell is the widest spans the whole width: the cut column took all the room left.
        #expect(TextTable.displayWidth(lines[2]) == width)
        #expect(lines[2].contains("objc_msgSend") && lines[2].hasSuffix("-[Cache load]"))
    }

    @Test("without a width (--wide) every cell is whole")
    func wide() {
        let lines = Self.lines(Self.groups().render(width: nil))
        #expect(lines[1].contains(String(repeating: "x", count: 248)))
        #expect(!lines[1].contains(TextTable.shorteningMarker))
        #expect(TextTable.displayWidth(lines[1]) > 300)
    }

    @Test("COLUMNS: a whole number of at least 20 is obeyed; unset, empty or garbage is 100")
    func columnsVariable() {
        #expect(TableWidth.columns(environment: nil) == 100)
        #expect(TableWidth.columns(environment: "80") == 80)
        #expect(TableWidth.columns(environment: "240") == 240)
        for invalid in ["", "abc", "-3", "0", "5", "1e9", "80 ", "99999999999999999999"] {
            #expect(TableWidth.columns(environment: invalid) == 100, "\(invalid)")
        }
    }

    @Test("an escape or a wide character is never cut in two")
    func escapesAndCharacters() {
        // Escaped when appended: ESC shows as \x1b, U+202E as \u{202e}; the CJK name takes two columns a character.
        let cell =
            String(repeating: "\u{1B}", count: 30) + String(repeating: "写", count: 30)
            + String(repeating: "\u{202E}", count: 10) + "👩‍💻"
        var table = TextTable(headers: ["NAME", "PID"], alignments: [.left, .right])
        table.append([cell, "2204"])
        for width in 20...60 {
            let row = Self.lines(table.render(width: width))[1]
            #expect(TextTable.displayWidth(row) <= width, "\(width): \(row)")
            #expect(!row.contains("\u{1B}") && !row.contains("\u{202E}"))
            let (head, tail) = Self.split(row)
            // Whole escapes only: every backslash starts \x1b or \u{202e}.
            for piece in [head, tail] {
                let escapes = piece.components(separatedBy: "\\").dropFirst()
                #expect(escapes.allSatisfy { $0.hasPrefix("x1b") || $0.hasPrefix("u{202e}") }, "\(width): \(row)")
            }
            #expect(tail.contains("👩‍💻") && row.hasSuffix(" 2204"), "\(width): \(row)")
        }
    }

    static func split(_ row: String) -> (String, String) {
        guard let marker = row.range(of: TextTable.shorteningMarker) else { return (row, "") }
        return (String(row[..<marker.lowerBound]), String(row[marker.upperBound...]))
    }

    @Test("a table of numbers too wide for the terminal prints in bands led by its first column, figures whole")
    func bands() {
        let headers = ["DEVICE"] + (1...12).map { "FIGURE \($0)" }
        var table = TextTable(headers: headers, alignments: [.left] + Array(repeating: .right, count: 12))
        table.append(["iPhone 15 Pro Max"] + (1...12).map { "\($0 * 1_111_111)" })
        let text = table.render(width: 80)
        let lines = Self.lines(text)
        #expect(lines.allSatisfy { TextTable.displayWidth($0) <= 80 }, "\(lines)")
        #expect(!text.contains(TextTable.shorteningMarker))
        for k in 1...12 { #expect(text.contains("\(k * 1_111_111)"), "\(k)") }
        let headings = lines.filter { $0.hasPrefix("DEVICE") }
        #expect(headings.count >= 2)
        #expect(lines.filter { $0.hasPrefix("iPhone 15 Pro Max") }.count == headings.count)
    }

    @Test("a long line of a view wraps at spaces under its indent; a word too long is shortened")
    func viewLines() {
        let view =
            "  Note  " + String(repeating: "word ", count: 40) + "/" + String(repeating: "p", count: 200) + "\nshort"
        let fitted = LineFitting.fitted(view, width: 60)
        let lines = fitted.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { TextTable.displayWidth($0) <= 60 }, "\(lines)")
        #expect(lines[0].hasPrefix("  Note  word"))
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("    ") })
        #expect(lines.contains { $0.contains(TextTable.shorteningMarker) })
        #expect(lines.last == "short")
        #expect(LineFitting.fitted(view, width: nil) == view)
        // Colour codes take no column and are kept.
        let colored = "\u{1B}[1;31m" + String(repeating: "r", count: 30) + "\u{1B}[0m"
        #expect(LineFitting.fitted(colored, width: 30) == colored)
    }
}
