import ByteAccess
import Foundation
import FuzzReplaySupport
import PropertyBased
import Testing

@testable import APMInspectCore

/// ``ContentSniffer/format(of:)-(BorrowedBytes)`` searches the crash-text markers only when a NUL byte or
/// a text start needs them; it must say what the sniffer said when it searched them for every file (issue 21).
@Suite struct ContentSnifferReferenceTests {
    /// Pieces that steer every branch: structured starts, NUL and other control bytes, the markers, the `.ips`
    /// header keys, and filler long enough to bring the control bytes under one in a hundred.
    private static let pieces: [[UInt8]] = [
        Array("{".utf8), Array("[".utf8), Array("<".utf8), Array("\"".utf8), Array(" ".utf8), Array("\n".utf8),
        Array("a".utf8), [0], [0x01], [0x0C], [0x1F], [0xEF, 0xBB, 0xBF], Array("\"bug_type\"".utf8),
        Array("\"os_version\"".utf8), Array("Exception Type:".utf8), Array("Binary Images:".utf8),
        Array("Incident Identifier:".utf8), Array("Hardware Model:".utf8),
        Array(repeating: UInt8(ascii: "x"), count: 120), Array(repeating: UInt8(ascii: "x"), count: 120),
        Array(repeating: UInt8(ascii: "x"), count: 120), Array(repeating: UInt8(ascii: "x"), count: 120),
    ]
    private static let inputs = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...40)
        .map { $0.flatMap { pieces[$0] } }

    @Test func agreesWithTheSnifferThatSearchedEveryMarker() async {
        await propertyCheck(input: Self.inputs) { bytes in
            #expect(ContentSniffer.format(of: bytes) == Self.reference(bytes))
            Self.expectMagicAgrees(bytes)
        }
    }

    @Test(arguments: [
        "{\"a\":1}", "[1]", "<x/>", "\"s\"", "text", "Exception Type: x\u{0}", "{\"a\":\"\u{0}\"}",
        "{\"a\":\"Exception Type:\u{0}\"}", "Binary Images:\n\u{0}" + String(repeating: "y", count: 200),
        "Incident Identifier: 1\nHardware Model: iPhone8,2\n", "x\u{0}", "\u{1}\u{1}{}",
        // One NUL in text long enough to pass the control-byte test: only a marker lets it through.
        "{\u{0}" + String(repeating: "x", count: 120), "[\u{0}" + String(repeating: "x", count: 150),
        "{\"Exception Type:\u{0}" + String(repeating: "x", count: 150),
        "Exception Type: \u{0}" + String(repeating: "x", count: 150), "x\u{0}" + String(repeating: "x", count: 150),
    ])
    func edgeCasesAgree(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(ContentSniffer.format(of: bytes) == Self.reference(bytes))
    }

    /// Every real file of the repository's corpus is sniffed as before.
    @Test func corpusAgrees() throws {
        let corpus = FuzzReplayInputs.root.appendingPathComponent("Corpus")
        let files = FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String } ?? []
        var sniffed = 0
        for file in files {
            let path = corpus.appendingPathComponent(file).path
            guard FileReading.isRegularFile(atPath: path) else { continue }
            let bytes = try FileReading.contents(atPath: path)
            #expect(ContentSniffer.format(of: bytes) == Self.reference(bytes), "\(file)")
            Self.expectMagicAgrees(bytes)
            sniffed += 1
        }
        #expect(sniffed > 20)
    }

    /// Magic numbers of every kind the sniffer tells by one, and near misses.
    @Test(arguments: [
        Array("SQLite format 3".utf8) + [0, 1], Array("SQLite format 3".utf8), [0x1F, 0x8B, 8], [0x1F], [0x78, 0x9C],
        [0x78, 0x00], [0xD4, 0xC3, 0xB2, 0xA1], [0x0A, 0x0D, 0x0D, 0x0A],
        Array(repeating: 0, count: 257)
            + Array("ustar".utf8), [],
    ])
    func magicFormatIsTheSniffersVerdictOnMagic(_ bytes: [UInt8]) {
        Self.expectMagicAgrees(bytes)
    }

    /// ``ContentSniffer/magicFormat(of:)``, which the PowerLog family asks of every file instead of a full sniff,
    /// names exactly the magic-number formats the full sniff returns.
    private static func expectMagicAgrees(_ bytes: [UInt8]) {
        let format = ContentSniffer.format(of: bytes)
        let magicFormats: [ContentFormat] = [.sqlite, .gzip, .zlib, .pcap, .pcapng, .tar]
        #expect(ContentSniffer.magicFormat(of: bytes) == (magicFormats.contains(format) ? format : nil))
    }

    // MARK: The sniffer as it was, kept as the oracle.

    private static let markers = [
        "Incident Identifier:", "Exception Type:", "Crashed Thread:", "Translated Report (Full Report Below)",
        "Hardware Model:", "Termination Reason:", "Exception Codes:", "Binary Images:", "Triggered by Thread:",
        "Last Exception Backtrace:",
    ]

    private static func reference(_ bytes: [UInt8]) -> ContentFormat {
        bytes.withUnsafeBytes { buffer in
            if buffer.isEmpty { return .empty }
            if let magic = magic(buffer) { return magic }
            var i = 0
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { i = 3 }
            while i < buffer.count, isSpace(buffer[i]) { i += 1 }
            guard i < buffer.count else { return .empty }
            let prefix = UnsafeRawBufferPointer(rebasing: buffer[i..<min(buffer.count, i + 8192)])
            if buffer[i] == UInt8(ascii: "{"), ipsHeader(prefix) { return .ips }
            let crashMarked = markers.contains { ContentSniffer.containsText(BorrowedBytes(unsafeBytes: prefix), $0) }
            var control = 0
            for byte in prefix where byte < 0x20 && !isSpace(byte) && byte != 0x0C {
                if byte == 0, !crashMarked { return .binary }
                control += 1
            }
            if control * 100 > prefix.count { return .binary }
            switch buffer[i] {
            case UInt8(ascii: "{"): return ipsHeader(prefix) ? .ips : .json
            case UInt8(ascii: "["), UInt8(ascii: "\""): return .json
            case UInt8(ascii: "<"): return .xml
            default: break
            }
            if crashMarked { return .crashText }
            return ContentSniffer.containsText(BorrowedBytes(unsafeBytes: prefix), "\"bug_type\"") ? .ips : .text
        }
    }

    private static func magic(_ b: UnsafeRawBufferPointer) -> ContentFormat? {
        func starts(_ bytes: [UInt8]) -> Bool { b.count >= bytes.count && zip(b, bytes).allSatisfy { $0 == $1 } }
        if starts(Array("SQLite format 3".utf8) + [0]) { return .sqlite }
        if starts([0x1F, 0x8B]) { return .gzip }
        if starts([0xD4, 0xC3, 0xB2, 0xA1]) || starts([0xA1, 0xB2, 0xC3, 0xD4]) || starts([0x4D, 0x3C, 0xB2, 0xA1])
            || starts([0xA1, 0xB2, 0x3C, 0x4D])
        {
            return .pcap
        }
        if starts([0x0A, 0x0D, 0x0D, 0x0A]) { return .pcapng }
        if b.count >= 2, b[0] == 0x78, [0x01, 0x5E, 0x9C, 0xDA].contains(b[1]) { return .zlib }
        if b.count >= 262, Array(b[257..<262]) == Array("ustar".utf8) { return .tar }
        return nil
    }

    private static func ipsHeader(_ b: UnsafeRawBufferPointer) -> Bool {
        let end = b.firstIndex(of: 0x0A) ?? b.count
        let line = UnsafeRawBufferPointer(rebasing: b[0..<end])
        return line.count > 2
            && (ContentSniffer.containsText(BorrowedBytes(unsafeBytes: line), "\"bug_type\"")
                || ContentSniffer.containsText(BorrowedBytes(unsafeBytes: line), "\"os_version\""))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
