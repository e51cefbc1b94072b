import APMInspectCore
import ByteAccess
import PropertyBased
import Testing

@testable import CrashReportParsing

/// The byte-level text helpers must read numbers and find text exactly as the standard library does, since the
/// text reader replaced `Character`-level code with them.
@Suite struct TextBytesTests {
    private static let alphabet = Array("0123456789abcdefxX+- \t:()é".utf8)
    private static let bytes = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...24)

    private func with<T>(_ bytes: [UInt8], _ body: (TextBytes) -> T) -> T {
        bytes.withBorrowedBytes { body(TextBytes($0)) }
    }

    @Test func numbersReadLikeTheStandardLibrary() async {
        await propertyCheck(input: Self.bytes) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(with(bytes) { $0.unsigned() } == UInt64(text))
            #expect(with(bytes) { $0.unsigned(radix: 16) } == UInt64(text, radix: 16))
            #expect(with(bytes) { $0.int } == Int(text))
            #expect(with(bytes) { $0.hexValue() } == HexValue(parsing: Substring(text)))
            #expect(with(bytes) { $0.hexValue(hex: true) } == HexValue(parsing: Substring(text), hex: true))
        }
    }

    @Test(arguments: ["-0", "-00", "+0", "-", "+", "-1", "-0x0", "0x-0", "-a", "+-0", "--0", "-+0", "--1", "+-1"])
    func signsReadLikeTheStandardLibrary(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(with(bytes) { $0.int } == Int(text))
        #expect(with(bytes) { $0.unsigned() } == UInt64(text))
        #expect(with(bytes) { $0.unsigned(radix: 16) } == UInt64(text, radix: 16))
        #expect(with(bytes) { $0.hexValue() } == HexValue(parsing: Substring(text)))
        #expect(with(bytes) { $0.hexValue(hex: true) } == HexValue(parsing: Substring(text), hex: true))
    }

    @Test func overflowIsNilNotATrap() {
        #expect(with(Array("18446744073709551615".utf8)) { $0.unsigned() } == UInt64.max)
        #expect(with(Array("18446744073709551616".utf8)) { $0.unsigned() } == nil)
        #expect(with(Array("0x10000000000000000".utf8)) { $0.hexValue() } == nil)
        #expect(with(Array("-9223372036854775808".utf8)) { $0.int } == Int.min)
        #expect(with(Array("9223372036854775808".utf8)) { $0.int } == nil)
    }

    /// Spaces, tabs, ASCII, and Characters a space can join: a combining mark after it, a prepended mark before it.
    private static let trimPieces = [" ", "\t", "a", "é", "\u{0301}", "\u{0600}", "\r", "\n", "x "]
    private static let trimTexts = Gen.int(in: 0...(trimPieces.count - 1)).map { trimPieces[$0] }.array(of: 0...8)
        .map { $0.joined() }

    @Test func spaceTrimmingAgreesWithTheCharacterLevelTrim() async {
        await propertyCheck(input: Self.trimTexts) { text in
            let first = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
            let last = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? first
            let reference = first < last ? String(text[first..<last]) : ""
            // Compared as bytes: String equality would let canonically equal spellings pass.
            #expect(Array(text.trimmingSpaces().utf8) == Array(reference.utf8))
            #expect(Array(text.dropFirst(0).trimmingSpaces().utf8) == Array(reference.utf8))
        }
    }

    @Test func hexDigitRunsAgreeWithTheByteTest() async {
        await propertyCheck(input: Self.bytes) { bytes in
            with(bytes) { view in
                #expect(view.isAllHexDigits == bytes.allSatisfy(TextBytes.isHexDigit))
                // Windows that start mid-buffer read their own bytes only.
                let tail = view.dropFirst(min(3, bytes.count))
                #expect(tail.isAllHexDigits == bytes.dropFirst(3).allSatisfy(TextBytes.isHexDigit))
            }
        }
        #expect(with(Array("00000001e3d0e42cG".utf8)) { $0.isAllHexDigits } == false)
        #expect(with(Array("00000001e3d0e42c".utf8)) { $0.isAllHexDigits } == true)
    }

    @Test func searchAndTrimAgreeWithStrings() async {
        await propertyCheck(input: Self.bytes) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            let valid = Array(text.utf8) == bytes
            guard valid else { return }
            with(bytes) { view in
                #expect(view.range(of: " + ").map(\.lowerBound) == text.byteOffset(of: " + "))
                #expect(view.contains("(") == text.containsBytes("("))
                #expect(view.contains(" + ", anchor: 1) == text.containsBytes(" + "))
                #expect(view.contains("0x(", anchor: 2) == text.containsBytes("0x("))
                #expect(view.contains("a:", anchor: 0) == text.containsBytes("a:"))
                let reference = stride(from: bytes.count - 3, through: 0, by: -1).first { offset in
                    Array(bytes[offset..<(offset + 3)]) == Array(" + ".utf8)
                }
                #expect(view.lastRange(of: " + ")?.lowerBound == reference)
                #expect(view.trimmedString == text.trimmingSpaces())
                #expect(
                    view.tokens().map(\.string)
                        == text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                )
            }
        }
    }

    @Test func windowsNeverReachOutside() {
        with(Array("0x1f + 2".utf8)) { view in
            #expect(view.slice(5, 100).string == "+ 2")
            #expect(view.slice(-3, 2).string == "0x")
            #expect(view.slice(6, 2).isEmpty)
            #expect(view.dropFirst(50).isEmpty)
            #expect(view.firstIndex(of: 0x2B, from: 99) == nil)
        }
    }
}

/// Frames that name the same image share one name; different names of one length stay apart, also past the
/// names remembered.
@Suite struct FrameImageNamesTests {
    @Test func namesAreReadAsWrittenWhateverWasSeenBefore() {
        var names = FrameImageNames()
        let written =
            (0..<40).map { "lib\($0 % 20 < 10 ? "0" : "")\($0 % 20).dylib" } + ["UIKitCore", "UIKitCore", "é.dylib"]
        for text in written {
            let bytes = Array(text.utf8)
            let read = bytes.withBorrowedBytes { names.name(TextBytes($0)) }
            #expect(read == text)
        }
    }
}
