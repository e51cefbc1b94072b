import APMInspectCore
import Testing

@testable import CrashReportParsing

/// Lines far longer than any a report writer makes: every text kept from them is cut at the line cap, with a
/// warning, so a huge line costs its bytes once and not once per field and output.
@Suite struct LongLineTests {
    private static let header = """
        Incident Identifier: 1A2B3C4D-0000-0000-0000-000000000000
        Hardware Model: iPhone14,2
        Process: App [123]
        Path: /private/var/containers/Bundle/Application/X/App.app/App
        Identifier: com.example.App
        OS Version: iPhone OS 17.0 (21A329)
        Exception Type: EXC_CRASH (SIGABRT)
        Triggered by Thread: 0

        Thread 0 Crashed:

        """

    private static let images = """

        Binary Images:
        0x100000000 - 0x100ffffff App arm64  <0123456789abcdef0123456789abcdef> /private/var/containers/Bundle/Application/X/App.app/App

        """

    /// A report whose first frame's symbol is `symbolBytes` long (20 MB here: generated, never committed).
    private static func report(symbolBytes: Int, fill: UInt8 = 0x41) -> [UInt8] {
        var bytes = Array(header.utf8)
        bytes += Array("0   App   0x0000000100004000 ".utf8)
        bytes += [UInt8](repeating: fill, count: symbolBytes)
        bytes += Array(" + 12\n1   libsystem_kernel.dylib 0x00000001e0000000 __pthread_kill + 8\n".utf8)
        bytes += Array(images.utf8)
        return bytes
    }

    @Test func aTwentyMegabyteFrameLineIsCutToTheCap() throws {
        let length = 20 << 20
        let result = try CrashReportParser().parse(Self.report(symbolBytes: length))
        let report = result.report
        let cap = CrashTextReader.maxLineBytes
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 2)
        let first = try #require(frames.first)
        // The line is read up to the cap: index, image and address survive, the symbol is what fits.
        #expect(first.image == "App")
        #expect(first.address?.value == 0x1_0000_4000)
        let symbol = try #require(first.symbol)
        #expect(symbol.utf8.count < cap)
        #expect(symbol.utf8.count > cap - 64)
        #expect(symbol.utf8.allSatisfy { $0 == 0x41 })
        #expect((first.raw?.utf8.count ?? 0) <= cap)
        // The frame after the long line is read normally.
        #expect(frames[1].symbol == "__pthread_kill")
        #expect(frames[1].symbolOffset == 8)
        // The signature's frames are pieces of the cut line too.
        #expect((report.signatureFrames ?? []).allSatisfy { $0.utf8.count <= cap + 64 })
        let warnings = result.diagnostics.filter { $0.code == .crashLineTooLong }
        #expect(warnings.count == 1)
        #expect(warnings.first?.location?.line == 11)
        // wording: the message gives the length of the line that was cut.
        #expect(warnings.first?.message.contains("\(length + 29 + 5)") == true)
    }

    @Test func theCutNeverSplitsAUTF8Sequence() throws {
        // Three-byte characters: the cap (a power of two) falls inside one of them.
        var symbol: [UInt8] = []
        while symbol.count < 200_000 { symbol += Array("€".utf8) }
        var bytes = Array(Self.header.utf8) + Array("0   App   0x0000000100004000 ".utf8) + symbol
        bytes += Array("\n".utf8) + Array(Self.images.utf8)
        let result = try CrashReportParser().parse(bytes)
        let kept = try #require(result.report.threads.first?.frames.first?.symbol)
        #expect(!kept.contains("\u{FFFD}"))
        #expect(kept.unicodeScalars.allSatisfy { $0 == "€" })
    }

    @Test func manyLongLinesAreNamedTenTimesThenCounted() throws {
        var bytes = Array(Self.header.utf8)
        for k in 0..<15 {
            bytes += Array("\(k)   App   0x0000000100004000 ".utf8)
            bytes += [UInt8](repeating: 0x42, count: CrashTextReader.maxLineBytes + 10)
            bytes += [0x0A]
        }
        bytes += Array(Self.images.utf8)
        let result = try CrashReportParser().parse(bytes)
        #expect(result.report.threads.first?.frames.count == 15)
        #expect(result.diagnostics.filter { $0.code == .crashLineTooLong && $0.location != nil }.count == 10)
        // The rest are counted in one more, which has no location.
        #expect(result.diagnostics.filter { $0.code == .crashLineTooLong && $0.location == nil }.count == 1)
    }

    @Test func aLineAtTheCapIsNotCut() throws {
        let fits = CrashTextReader.maxLineBytes - 29
        let result = try CrashReportParser().parse(Self.report(symbolBytes: fits - 5, fill: 0x5A))
        #expect(!result.diagnostics.map(\.code).contains(.crashLineTooLong))
        #expect(result.report.threads.first?.frames.first?.symbolOffset == 12)
        #expect(result.report.threads.first?.frames.first?.symbol?.utf8.count == fits - 5)
    }
}
