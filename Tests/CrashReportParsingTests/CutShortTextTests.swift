import APMInspectCore
import Testing

@testable import CrashReportParsing

/// A text report whose file stops early (a truncated copy, a download cut off, `head -c`) is read as partial, with
/// a warning at the line where it ends, instead of as a whole report with fewer threads.
///
/// Each test cuts one report at every byte offset of a range, so the rule is checked wherever the cut falls, not at
/// a few hand-picked places.
@Suite struct CutShortTextTests {
    private static let head = """
        Incident Identifier: 5D1E2C7A-3B44-4F0E-9A51-0C6B2E8F7D13
        Hardware Model:      iPhone13,2
        Process:             Lantern [4711]
        Path:                /private/var/containers/Bundle/Application/0B6F/Lantern.app/Lantern
        Identifier:          com.lanternworks.lantern
        Version:             3.2 (3201)
        Code Type:           ARM-64 (Native)
        OS Version:          iPhone OS 15.4.1 (19E258)
        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010
        Triggered by Thread:  0

        """

    private static let threads = """
        Thread 0 Crashed:
        0   libobjc.A.dylib               \t0x00000001a1b2c3d4 objc_msgSend + 20
        1   Lantern                       \t0x0000000102a4f1c8 LanternStore.reload() + 312
        2   UIKitCore                     \t0x00000001a7c81e20 -[UIViewController viewDidLoad] + 96

        Thread 1:
        0   libsystem_kernel.dylib        \t0x00000001c8e9a1b4 __workq_kernreturn + 8
        1   libsystem_pthread.dylib       \t0x00000001e3f1a0ac _pthread_wqthread + 228

        """

    private static let imagesHeading = """
        Binary Images:

        """

    private static let images = [
        "0x102a00000 - 0x102bfffff Lantern arm64  <9f86d081884c3d659a2feaa0c55ad015> "
            + "/private/var/containers/Bundle/Application/0B6F/Lantern.app/Lantern",
        "0x1a1b00000 - 0x1a1b3ffff libobjc.A.dylib arm64e  <2c26b46b68ffc68ff99b453c1d304134> "
            + "/usr/lib/libobjc.A.dylib",
        "0x1c8e90000 - 0x1c8ebffff libsystem_kernel.dylib arm64e  <fcde2b2edba56bf408601fb721fe9b5c> "
            + "/usr/lib/system/libsystem_kernel.dylib",
    ]

    private static var whole: String { head + "\n" + threads + "\n" + imagesHeading + images.joined(separator: "\n") }

    private static func read(_ text: Substring) throws -> CrashParseResult {
        try CrashReportParser().parse(Array(text.utf8))
    }

    private static func cutWarnings(_ result: CrashParseResult) -> [Diagnostic] {
        result.diagnostics.filter { $0.severity == .warning && $0.code == .crashCutShort }
    }

    @Test func theWholeReportIsNotPartialWithOrWithoutItsLastLineBreak() throws {
        for text in [Self.whole, Self.whole + "\n", Self.whole + "\n\nEOF\n"] {
            let result = try Self.read(text[...])
            #expect(!result.report.isPartial)
            #expect(Self.cutWarnings(result).isEmpty)
            #expect(result.report.binaryImages.count == 3)
        }
    }

    @Test func everyCutInsideTheThreadsIsPartialWithTheLastLineNamed() throws {
        let text = Self.whole
        let utf8 = Array(text.utf8)
        let from = (Self.head + "\n").utf8.count
        let to = from + Self.threads.utf8.count + 1
        for cut in from...to {
            let prefix = String(decoding: utf8[..<cut], as: UTF8.self)
            let result = try Self.read(prefix[...])
            #expect(result.report.isPartial, "cut at \(cut)")
            let warnings = Self.cutWarnings(result)
            try #require(warnings.count == 1, "cut at \(cut)")
            // The warning points at the last line with text; when the file ends inside that line, at its first byte.
            let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false)
            let lastText = try #require(lines.lastIndex { !$0.isEmpty })
            #expect(warnings[0].location?.line == lastText + 1, "cut at \(cut)")
            let unterminated = !prefix.hasSuffix("\n")
            if unterminated {
                let lineStart = utf8[..<cut].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                #expect(warnings[0].location?.byteOffset == lineStart, "cut at \(cut)")
            }
        }
    }

    @Test func theExceptionAloneIsNotTakenForAWholeReport() throws {
        let result = try Self.read((Self.head + "\n")[...])
        #expect(result.report.exception != nil)
        #expect(result.report.threads.isEmpty)
        #expect(result.report.isPartial)
        #expect(Self.cutWarnings(result).count == 1)
    }

    @Test func aCutInsideTheLastImagesUUIDOrPathIsPartial() throws {
        let before = Self.head + "\n" + Self.threads + "\n" + Self.imagesHeading + Self.images[0] + "\n"
        let line = Self.images[1]
        let lineBytes = Array(line.utf8)
        let open = try #require(lineBytes.firstIndex(of: 0x3C))
        let close = try #require(lineBytes.firstIndex(of: 0x3E))
        #expect(close > open)
        // From inside the UUID to one byte short of the path's end: every cut is seen, since the image before has a
        // UUID and a path that ends in its name.
        for cut in (open + 1)..<lineBytes.count {
            let text = before + String(decoding: lineBytes[..<cut], as: UTF8.self)
            let result = try Self.read(text[...])
            #expect(result.report.isPartial, "cut at \(cut) of the second image line")
            let warnings = Self.cutWarnings(result)
            try #require(warnings.count == 1, "cut at \(cut)")
            #expect(warnings[0].location?.byteOffset == before.utf8.count)
        }
    }

    @Test func anUnclosedUUIDInTheOnlyImageIsPartial() throws {
        let line = Self.images[0]
        let cut = try #require(line.firstIndex(of: "<"))
        let text = Self.head + "\n" + Self.threads + "\n" + Self.imagesHeading + line[...cut] + "9f86d081"
        let result = try Self.read(text[...])
        #expect(result.report.isPartial)
        #expect(Self.cutWarnings(result).count == 1)
    }

    @Test func anImageLineCutAfterItsBaseIsPartial() throws {
        for tail in ["0x102a00000 -    0x", "0x102a00000 - 0x102bfffff", "0x102a00000 - 0x102bfffff "] {
            let text = Self.head + "\n" + Self.threads + "\n" + Self.imagesHeading + tail
            let result = try Self.read(text[...])
            #expect(result.report.isPartial, "\(tail)")
            #expect(Self.cutWarnings(result).count == 1, "\(tail)")
        }
    }

    @Test func aCutAtTheEndOfAnImageLineIsAWholeReport() throws {
        // The file ends after a whole image: nothing tells it from a report with fewer images.
        let text = Self.head + "\n" + Self.threads + "\n" + Self.imagesHeading + Self.images[0] + "\n" + Self.images[1]
        let result = try Self.read(text[...])
        #expect(!result.report.isPartial)
        #expect(Self.cutWarnings(result).isEmpty)
    }

    @Test func aFragmentWithoutHeaderKeepsItsOwnReading() throws {
        // A backtrace pasted into prose is a fragment: partial already, and not said to be cut.
        let result = try Self.read(Self.threads[...])
        #expect(result.report.isPartial)
        #expect(result.report.sourceFormat == .fragment)
        #expect(Self.cutWarnings(result).isEmpty)
    }
}
