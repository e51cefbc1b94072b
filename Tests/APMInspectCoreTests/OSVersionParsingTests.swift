import PropertyBased
import Testing

@testable import APMInspectCore

/// ``OSVersion/init(parsing:)`` splits plain ASCII on its bytes; it must split every text as the Character-level
/// reading it replaced does.
@Suite struct OSVersionParsingTests {
    /// The Character-level reading, as it was before the byte path.
    static func reference(_ raw: String) -> (name: String, version: String, build: String) {
        let text = raw.trimmingASCIIWhitespace()
        var head = text
        var build = ""
        if let open = text.lastIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            build = String(text[text.index(after: open)..<close]).trimmingASCIIWhitespace()
            head = String(text[..<open]).trimmingASCIIWhitespace()
        }
        var name = head
        var version = ""
        if let lastSpace = head.lastIndex(of: " ") {
            let candidate = String(head[head.index(after: lastSpace)...])
            if candidate.first?.isNumber == true {
                version = candidate
                name = String(head[..<lastSpace]).trimmingASCIIWhitespace()
            }
        } else if head.first?.isNumber == true {
            version = head
            name = ""
        }
        return (name, version, build)
    }

    /// Pieces that make the splits interesting: parentheses, spaces of each kind, digits (ASCII and not), CR LF,
    /// and marks that join the Character before them.
    private static let pieces = [
        "iPhone OS", "macOS", " ", "  ", "\t", "\r", "\n", "\r\n", "(", ")", "1", "13.3.1", "17D50", "a", ".", "é",
        "\u{301}", "\u{0661}", "x",
    ]
    private static let texts = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...12).map {
        $0.joined()
    }

    @Test func splitsAsTheCharacterReadingDoes() async {
        await propertyCheck(input: Self.texts) { text in
            let parsed = OSVersion(parsing: text)
            let expected = Self.reference(text)
            #expect(parsed.name == expected.name)
            #expect(parsed.version == expected.version)
            #expect(parsed.build == expected.build)
            #expect(parsed.raw == text)
        }
    }

    @Test(arguments: [
        "iPhone OS 13.3.1 (17D50)", "macOS 14.5 (23F79)", "13.3.1 (17D50)", "Watch OS 7.0.1 (18R395)", "",
        "iPhone OS (17D50", "iOS 18.0 (22A5350a) ", "(x) 1", "Mac OS X 10.15.7 (19H2)\r\n", "1\r\n2 (3)",
    ])
    func writtenVersions(_ text: String) {
        let parsed = OSVersion(parsing: text)
        let expected = Self.reference(text)
        #expect(parsed.name == expected.name && parsed.version == expected.version && parsed.build == expected.build)
    }
}
