import Testing

@testable import ReportRendering

/// The byte paths added for speed (printable ASCII lines, ASCII widths) must give what the `Character` paths give.
@Suite("Line fitting: the ASCII paths agree with the Character paths")
struct LineFittingASCIITests {
    /// A deterministic generator, so a failure names a reproducible line.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// Lines shaped like `scan`'s: an indent, words of every length (paths longer than a line among them), runs of
    /// spaces.
    static func line(_ random: inout Seeded) -> String {
        let words = ["a", "watchdog", "/work/bench/floor1k/report-1080.ips", "(0 %).", "x", "", "scene-create:"]
        var text = String(repeating: " ", count: Int.random(in: 0...6, using: &random))
        for _ in 0..<Int.random(in: 1...40, using: &random) {
            if Int.random(in: 0..<12, using: &random) == 0 {
                text += String(repeating: "p/", count: Int.random(in: 10...90, using: &random))
            } else {
                text += words[Int.random(in: 0..<words.count, using: &random)]
            }
            text += String(repeating: " ", count: Int.random(in: 1...3, using: &random))
        }
        return text
    }

    @Test func printableASCIILinesWrapAsTheCharacterPathWrapsThem() {
        var random = Seeded(state: 7)
        for _ in 0..<2_000 {
            let text = Self.line(&random)
            for width in [8, 20, 41, 80, 132] {
                let bytes = LineFitting.fitted(printableASCII: Array(text.utf8), width: width)
                let characters = LineFitting.fitted(characters: Substring(text), width: width)
                #expect(bytes == characters, "width \(width): \(text.debugDescription)")
            }
        }
    }

    @Test func asciiWidthIsTheSumOfCharacterWidths() {
        for text in ["", "abc", "tab\there", "cr\r\nlf", "\r\n\r\n", "\u{7}bell", "line\nbreak", "café", "表 x"] {
            let characters = text.reduce(0) { $0 + TextTable.displayWidth(of: $1) }
            #expect(TextTable.displayWidth(text) == characters, "\(text.debugDescription)")
        }
    }
}
