import APMInspectCore
import ByteAccess
import Testing

@testable import CrashReportParsing

/// Round trips `apm-inspect fuzz` found broken (`ips-translate-round-trip-*`, docs/fuzzing.md): a 309 report
/// translated to Apple's text layout reads back as the same threads and frames, and is still a crash report.
@Suite struct TranslationFuzzFindingTests {
    private static func roundTrip(_ json: String) throws -> (before: CrashReport, text: String, after: CrashReport) {
        let before = try CrashReportParser().parse(Array(json.utf8)).report
        let text = try CrashTextTranslator().translate(Array(json.utf8))
        let after = try CrashReportParser().parse(Array(text.utf8)).report
        return (before, text, after)
    }

    /// `ips-translate-round-trip-1a24f35a`: a frame whose `imageIndex` names no image has no address; the layout
    /// writes `???` in its address column, which must read back as that frame, not drop it.
    @Test func framesWithoutAnAddressReadBack() throws {
        let json = TranslationTests.iosReport.replacingOccurrences(
            of: #"{"imageOffset":38500,"imageIndex":0}"#,
            with: #"{"imageOffset":38500,"symbol":"helper","symbolLocation":12,"imageIndex":97},{"imageIndex":98},"#
                + #"{"imageIndex":0}"#
        )
        #expect(json != TranslationTests.iosReport)
        let (before, text, after) = try Self.roundTrip(json)
        #expect(text.contains("???"))
        let crashed = try #require(before.threads.first { $0.crashed })
        #expect(crashed.frames.count == 6)
        #expect(crashed.frames.filter { $0.address == nil }.count == 3)
        #expect(after.threads.map(\.frames.count) == before.threads.map(\.frames.count))
        #expect(
            after.threads.map { $0.frames.map(\.address?.value) }
                == before.threads.map { $0.frames.map(\.address?.value) }
        )
        let helper = try #require(after.threads.flatMap(\.frames).first { $0.symbol == "helper" })
        #expect(helper.address == nil)
        #expect(helper.symbolOffset == 12)
    }

    /// An image with a blank name goes by its file's name (a fuzz finding of 2026-12-07).
    ///
    /// In `ips-translate-round-trip-1a24f35a` of that run an image whose `name` is empty left its frames' image
    /// column blank, and a frame line without an image name does not read back as a frame. The image now goes by
    /// its file's name (`libsystem_pthread.dylib`), or `???` without a path.
    @Test func anImageWithABlankNameGoesByItsFileName() throws {
        var json = TranslationTests.iosReport.replacingOccurrences(
            of: #""name":"libsystem_pthread.dylib""#,
            with: #""name":"""#
        )
        json = json.replacingOccurrences(
            of: #""path":"\/usr\/lib\/system\/libsystem_kernel.dylib","name":"libsystem_kernel.dylib""#,
            with: #""name":"  ""#
        )
        #expect(!json.contains("libsystem_kernel.dylib"))
        let (before, text, after) = try Self.roundTrip(json)
        #expect(text.contains("libsystem_pthread.dylib"))
        #expect(after.threads.map(\.frames.count) == before.threads.map(\.frames.count))
        #expect(
            after.threads.map { $0.frames.map(\.address?.value) }
                == before.threads.map { $0.frames.map(\.address?.value) }
        )
        let named = Set(after.threads.flatMap(\.frames).compactMap(\.image))
        #expect(named.contains("libsystem_pthread.dylib"))
        #expect(named.contains("???"))
        #expect(!named.contains { $0.allSatisfy(\.isWhitespace) })
    }

    /// A line that only looks like a frame with an unknown address (no tab before `???`) stays text.
    @Test func questionMarksWithoutTheColumnTabAreNotAFrame() {
        func frameLine(_ text: String) -> (index: Int, address: UInt64?)? {
            Array(text.utf8).withBorrowedBytes { buffer in
                CrashTextReader.frameLine(TextBytes(buffer)).map { ($0.index, $0.address?.value) }
            }
        }
        #expect(frameLine("3   ??? ??? ???") == nil)
        #expect(frameLine("3   App\t  ???x") == nil)
        let line = try? #require(frameLine("3   App   \t               ??? run + 4"))
        #expect(line?.index == 3)
        #expect(line?.address == nil)
        #expect(frameLine("3   App   \t       0x1a2b run + 4")?.address == 0x1a2b)
    }

    /// `ips-translate-round-trip-0b43be63`: NUL bytes in an image path once made the whole translation sniff as
    /// binary; they are now written escaped, as every control character in a value is.
    @Test func translationWithNULBytesIsStillACrashReport() throws {
        let json = TranslationTests.iosReport.replacingOccurrences(
            of: #"Pebble.app\/Pebble""#,
            with: #"Peb\u0000\u0000ble.app\/Pebble""#
        )
        #expect(json != TranslationTests.iosReport)
        let (before, text, after) = try Self.roundTrip(json)
        #expect(!text.utf8.contains(0))
        #expect(text.contains(#"Peb\x00\x00ble.app"#))
        #expect(ContentSniffer.format(of: Array(text.utf8)) == .crashText)
        #expect(after.process == before.process)
        #expect(after.threads.count == before.threads.count)
    }

    /// A symbol or name holding line feeds and escape sequences (a hostile or damaged report) stays inside its
    /// own line: no frame, thread or `Binary Images:` line can be forged, and no control byte reaches the text.
    @Test func valuesWithLineBreaksCannotForgeLines() throws {
        let forged = #"evil\n0   Forged  \t0x0 main + 0\nBinary Images:\n0x0 - 0x1 forged arm64\u001b[2J\r"#
        let json = TranslationTests.iosReport.replacingOccurrences(
            of: #""symbol":"Store.load(key:)""#,
            with: #""symbol":"Store.load(key:)"# + forged + #"""#
        )
        #expect(json != TranslationTests.iosReport)
        let clean = try Self.roundTrip(TranslationTests.iosReport)
        let (before, text, after) = try Self.roundTrip(json)
        #expect(text.split(separator: "\n").count == clean.text.split(separator: "\n").count)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("Binary Images:") }.count == 1)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        #expect(text.contains(#"Store.load(key:)evil\n0   Forged"#))
        #expect(after.threads.map(\.frames.count) == before.threads.map(\.frames.count))
        #expect(after.binaryImages.count == before.binaryImages.count)
    }

    /// The NULs stay under the 1% of control bytes any text may hold.
    @Test func nulBytesWithoutACrashMarkerAreBinary() {
        let lines = String(
            repeating: "Thread 1:\n0   libsystem_kernel.dylib \t 0x1ddd3c684 mach_msg2_trap + 8\n",
            count: 4
        )
        let plain = Array(lines.utf8) + [0] + Array(lines.utf8)
        #expect(ContentSniffer.format(of: plain) == .binary)
        let crash = Array(("Exception Type:  EXC_CRASH (SIGABRT)\n" + lines).utf8) + [0] + Array(lines.utf8)
        #expect(ContentSniffer.format(of: crash) == .crashText)
    }

    /// Raw control characters in a JSON string are kept with a warning (fuzz seed 37).
    ///
    /// In `ips-translate-round-trip-0b43be63`, 130 raw 0x01 bytes inside a symbol (JSON escapes control characters)
    /// were kept without a word, so the report read as clean, and its translation, three in a hundred bytes control
    /// characters, sniffed as binary. The round trip is promised for reports read cleanly.
    @Test func rawControlCharactersInStringsAreSaid() throws {
        let raw = String(repeating: "\u{1}", count: 130)
        let json = TranslationTests.iosReport.replacingOccurrences(of: #""symbol":""#, with: #""symbol":"x\#(raw)"#)
        #expect(json != TranslationTests.iosReport)
        let result = try CrashReportParser().parse(Array(json.utf8))
        let said = result.diagnostics.filter { $0.code == .jsonRawControlCharacter }
        #expect(said.count == 1)
        #expect(said.first?.severity == .warning)
        #expect(said.first?.location?.line != nil)
        let symbols = result.report.threads.flatMap(\.frames).compactMap(\.symbol)
        #expect(symbols.contains { $0.hasPrefix("x" + raw) })
    }
}

/// `apm-inspect fuzz --seed 8101`: a frame whose `symbol` is a number was written `1234 + 5`, which the text
/// reader took for an unsymbolicated `base + offset`; the symbol was lost and, with no address in the JSON, the
/// offset gave the frame one from its image's base.
@Suite struct NumericSymbolRoundTripTests {
    private static func roundTrip(_ json: String) throws -> (before: CrashReport, text: String, after: CrashReport) {
        let before = try CrashReportParser().parse(Array(json.utf8)).report
        let text = try CrashTextTranslator().translate(Array(json.utf8))
        let after = try CrashReportParser().parse(Array(text.utf8)).report
        return (before, text, after)
    }

    static func frames(_ report: CrashReport) -> [CrashReport.Frame] { report.threads.flatMap(\.frames) }

    @Test(arguments: [
        // A number, with and without an image offset (then the frame has no address).
        #"{"symbol":1234,"symbolLocation":5,"imageIndex":0}"#,
        #"{"imageOffset":38500,"symbol":1234,"symbolLocation":5,"imageIndex":0}"#,
        // Hex digits alone are a symbol name too.
        #"{"imageOffset":38500,"symbol":"add","symbolLocation":5,"imageIndex":0}"#,
        #"{"symbol":"face","symbolLocation":5,"imageIndex":0}"#,
    ])
    func aSymbolThatLooksLikeANumberStaysASymbol(frame: String) throws {
        let json = TranslationTests.iosReport.replacingOccurrences(
            of: #"{"imageOffset":38500,"imageIndex":0}"#,
            with: frame
        )
        #expect(json != TranslationTests.iosReport)
        let (before, _, after) = try Self.roundTrip(json)
        let symbol = try #require(Self.frames(before).first { $0.symbolOffset == 5 }?.symbol)
        let read = try #require(Self.frames(after).first { $0.symbol == symbol })
        #expect(read.symbolOffset == 5)
        #expect(Self.frames(after).map(\.address?.value) == Self.frames(before).map(\.address?.value))
    }

    /// The number 0 as a symbol reads as the `0 + 0` of a null frame when an offset follows it: the offset is left
    /// out so that the symbol and the address survive.
    @Test func theSymbolZeroKeepsItsText() throws {
        let json = TranslationTests.iosReport.replacingOccurrences(
            of: #"{"imageOffset":38500,"imageIndex":0}"#,
            with: #"{"symbol":0,"symbolLocation":5,"imageIndex":0}"#
        )
        let (before, text, after) = try Self.roundTrip(json)
        #expect(!text.contains(" 0 + 5"))
        #expect(Self.frames(after).contains { $0.symbol == "0" && $0.symbolOffset == nil })
        #expect(Self.frames(after).map(\.address?.value) == Self.frames(before).map(\.address?.value))
    }

    /// Apple's unsymbolicated forms are still read as a load address and an offset.
    @Test func unsymbolicatedFramesStillReadAsBasePlusOffset() throws {
        let lines = [
            "2   ???  000000000000000000 0 + 0",
            "3   Pebble  0x100009644 0x100000000 + 38468",
        ]
        for line in lines {
            let report = try CrashReportParser().parse(Array(("Thread 0 Crashed:\n" + line + "\n").utf8)).report
            let frame = try #require(report.threads.first?.frames.first)
            #expect(frame.symbol == nil)
            #expect(frame.imageOffset != nil)
        }
    }
}
