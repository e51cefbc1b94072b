import ReportRendering
import Testing

@Suite("TextTable display width")
struct TextTableWidthTests {
    @Test(
        "wide characters take two columns, combining marks none",
        arguments: [
            ("SnapCollage", 11), ("写真コラージュ", 14), ("카카오톡", 8), ("ＡＢ", 4), ("📷 Camera", 9),
            ("e\u{301}cole", 5), ("👩‍💻", 2), ("\u{200B}", 0), ("❤️", 2), ("", 0),
        ]
    )
    func widths(text: String, expected: Int) {
        #expect(TextTable.displayWidth(text) == expected)
    }

    @Test("columns after a CJK or emoji name line up on a terminal")
    func alignment() {
        var table = TextTable(headers: ["NAME", "PID"], alignments: [.left, .right])
        table.append(["写真コラージュ", "2204"])
        table.append(["SnapCollage", "77"])
        table.append(["📷 Cam", "1"])
        let lines = table.render().split(separator: "\n").map(String.init)
        // Every line ends at the same display column: the right-aligned PID column closes the table.
        let ends = lines.map { TextTable.displayWidth($0) }
        #expect(Set(ends).count == 1, "\(lines)")
        #expect(lines[1] == "写真コラージュ  2204")
        #expect(lines[2] == "SnapCollage       77")
    }
}
