import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import Symbolication

/// The committed fixture reports, symbolicated with the fixture dSYMs, against their reviewed expected output
/// (`Fixtures/reports/expected/`, which `.ci/steps/symbolicate.sh` also diffs through the command).
@Suite struct ReportFixtureTests {
    static let cases: [(report: String, dsym: String)] = [
        ("Demo-arm64-ios.crash", "Demo-arm64.dSYM"),
        ("Demo-arm64-ios.ips", "Demo-arm64.dSYM"),
        ("Demo-x86_64-macos.crash", "Demo-fat.dSYM"),
    ]

    private func symbolicate(_ report: String, with dsym: String) throws -> ReportRewriter.Result {
        let store = DSYMStore(paths: [MachOFixtures.folder + dsym], loader: MachODebugImageLoader())
        return try ReportRewriter.rewrite(try fixtureReport(report), with: ReportSymbolicator(source: store))
    }

    @Test(arguments: cases)
    func matchesTheReviewedExpectedOutput(report: String, dsym: String) throws {
        let result = try symbolicate(report, with: dsym)
        let expected = try fixtureReport("expected/" + report)
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    /// The lines and inline chain llvm-symbolizer --inlines gives for the same file addresses (the pc of frame 0,
    /// each return address minus one).
    @Test func agreesWithTheOracleOnLinesAndInlineChains() throws {
        let ios = try symbolicate("Demo-arm64-ios.crash", with: "Demo-arm64.dSYM").report
        func places(_ frames: [CrashReport.Frame]) -> [String] {
            frames.filter { $0.image == "Demo" }.map { "\($0.file ?? "?"):\($0.line ?? 0)" }
        }
        #expect(
            places(ios.threads[0].frames) == [
                "/Demo/src/main.c:5", "/Demo/src/main.c:9", "/Demo/src/main.c:16", "/Demo/src/main.c:23",
            ]
        )
        #expect(ios.threads[0].frames.prefix(3).map(\.inlined) == [true, true, nil])
        #expect(ios.threads[0].frames.prefix(3).map(\.symbol) == ["scale", "adjust", "compute"])
        #expect(
            places(ios.threads[1].frames) == [
                "/Demo/src/swiftnames.c:9", "/Demo/src/swiftnames.c:15", "/Demo/src/swiftnames.c:21",
                "/Demo/src/swiftnames.c:25", "/Demo/src/main.c:25",
            ]
        )
        #expect(
            places(ios.threads[2].frames) == [
                "/Demo/src/shapes.cpp:19", "/Demo/src/shapes.cpp:23", "/Demo/src/shapes.cpp:31", "/Demo/src/main.c:26",
            ]
        )
        // Names as Apple prints them, the binary's spelling kept.
        let closure = ios.threads[1].frames[0]
        #expect(closure.symbol == "closure #1 in ViewController.viewDidLoad()")
        #expect(closure.mangledSymbol?.hasSuffix("$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_") == true)
        #expect(ios.threads[2].frames[0].symbol == "demo::geometry::Rectangle::area() const")
        #expect(ios.threads[2].frames[0].mangledSymbol == "_ZNK4demo8geometry9Rectangle4areaEv")
        #expect(ios.threads[0].frames[3].mangledSymbol == nil)
        let mac = try symbolicate("Demo-x86_64-macos.crash", with: "Demo-fat.dSYM").report
        #expect(
            places(mac.threads[0].frames) == [
                "/Demo/src/shapes.cpp:19", "/Demo/src/shapes.cpp:23", "/Demo/src/shapes.cpp:31", "/Demo/src/main.c:26",
            ]
        )
        // Frame 0 of thread 1 is the first byte of the closure: its pc is looked up as it is (line 8, offset 0).
        #expect(mac.threads[1].frames[0].line == 8)
        #expect(mac.threads[1].frames[0].symbolOffset == 0)
    }

    @Test func theImageWithoutADSYMIsNamedOnceAndItsFrameKept() throws {
        let result = try symbolicate("Demo-arm64-ios.ips", with: "Demo-arm64.dSYM")
        let missing = result.diagnostics.filter { $0.code == .symbolicateMissingDSYM && $0.severity == .warning }
        #expect(missing.count == 1)
        let position = try #require(result.report.binaryImages.firstIndex { $0.name == "Analytics" })
        #expect(missing.first?.location?.keyPath == "binaryImages[\(position)]")
        let analytics = result.report.threads[1].frames.last
        #expect(analytics?.image == "Analytics")
        #expect(analytics?.symbol == nil)
        #expect(result.resolvedFrames == 11)
    }

    /// docs/symbolication.md, "Caller frames' file and line".
    ///
    /// A caller frame whose return address R follows an instruction of an inlined range (R = 0x102f20050, the instruction at R − 4 is scale's, inlined into adjust,
    /// inlined into compute) is looked up at R − 1 and printed as the whole chain, innermost first, each function with
    /// its own file:line. atos prints one line for the same address: the concrete function with the innermost row's
    /// file:line.
    @Test func aCallerFrameInAnInlineChainIsTheChainAtItsReturnAddressMinusOne() throws {
        var text = String(decoding: try fixtureReport("Demo-arm64-ios.crash"), as: UTF8.self)
        let caller = "1   Demo                          \t0x0000000102f200b0 0x102f1c000 + 16560"
        #expect(text.contains(caller))
        text = text.replacingOccurrences(
            of: caller,
            with: "1   Demo                          \t0x0000000102f20050 0x102f1c000 + 16464"
        )
        let store = DSYMStore(paths: [MachOFixtures.folder + "Demo-arm64.dSYM"], loader: MachODebugImageLoader())
        let result = try ReportRewriter.rewrite(Array(text.utf8), with: ReportSymbolicator(source: store))
        let frames = result.report.threads[0].frames.filter { $0.address?.value == 0x1_02f2_0050 }
        #expect(frames.map(\.symbol) == ["scale", "adjust", "compute"])
        #expect(frames.map(\.inlined) == [true, true, nil])
        #expect(
            frames.map { "\($0.file ?? "?"):\($0.line ?? 0)" } == [
                "/Demo/src/main.c:5", "/Demo/src/main.c:9", "/Demo/src/main.c:16",
            ]
        )
        // Offsets count from R as written (0x102f20050 − scale's inlined range, adjust's, compute's start).
        #expect(frames.last?.symbolOffset == 0x50)
        let rewritten = String(decoding: result.bytes, as: UTF8.self)
        #expect(rewritten.contains("\t0x0000000102f20050 scale + 8 (main.c:5) [inlined]\n"))
        #expect(rewritten.contains("\t0x0000000102f20050 compute + 80 (main.c:16)\n"))

        // The same address as atos answers it: one line, the concrete function with the innermost row's line.
        let file = try MachOFile(path: MachOFixtures.dsym("Demo-arm64"))
        let image = try DebugImage(slice: try #require(file.slice(for: .arm64)))
        let returnAddress = try #require(image.fileAddress(of: 0x1_02f2_0050, loadAddress: 0x1_02f1_c000))
        let atos = AtosText.lines(
            image.locations(at: returnAddress - 1),
            address: returnAddress - 1,
            binary: "Demo",
            inlines: false
        )
        #expect(atos == "compute (in Demo) (main.c:5)\n")
    }

    @Test func aGarbageDSYMLeavesTheReportAsWritten() throws {
        let folder = try StoreTestFolder()
        let dwarf = Array(try Data(contentsOf: URL(fileURLWithPath: MachOFixtures.dsym("Demo-arm64"))))
        // The header and load commands intact, every byte after them zeroed: indexed, then useless when opened.
        var damaged = dwarf
        for k in 4096..<damaged.count { damaged[k] = 0 }
        let path = try folder.write(damaged, at: "Demo.dSYM/Contents/Resources/DWARF/Demo")
        let store = DSYMStore(paths: [path], loader: MachODebugImageLoader())
        let bytes = try fixtureReport("Demo-arm64-ios.crash")
        let result = try ReportRewriter.rewrite(bytes, with: ReportSymbolicator(source: store))
        #expect(result.bytes == bytes)
        #expect(result.diagnostics.contains { $0.code == .symbolicateNoFunction && $0.severity == .warning })
    }
}

@Suite struct ReportLayoutTests {
    private let symbolicator = ReportSymbolicator(
        source: DSYMStore(paths: [MachOFixtures.folder + "Demo-arm64.dSYM"], loader: MachODebugImageLoader())
    )

    /// The compact `(0x… 0x…)` Last Exception Backtrace of older iOS reports becomes one line per frame.
    @Test func aCompactLastExceptionBacktraceIsExpandedIntoFrameLines() throws {
        let text = String(decoding: try fixtureReport("Demo-arm64-ios.crash"), as: UTF8.self)
            .replacingOccurrences(
                of: "Triggered by Thread:  0\n",
                with: "Triggered by Thread:  0\n\nLast Exception Backtrace:\n(0x1c1f4b344 0x102f200b0 0x102f200d0)\n"
            )
        let result = try ReportRewriter.rewrite(Array(text.utf8), with: symbolicator)
        let output = String(decoding: result.bytes, as: UTF8.self)
        let expected = """
            Last Exception Backtrace:
            0   dyld                          \t0x00000001c1f4b344 0x1c1f30000 + 111428
            1   Demo                          \t0x0000000102f200b0 main + 28 (main.c:23)
            2   Demo                          \t0x0000000102f200d0 main + 60 (main.c:25)

            Thread 0 name:
            """
        #expect(output.contains(expected))
        #expect(!output.contains("(0x1c1f4b344"))
    }

    /// A bug_type 109 `.ips`: a JSON header line over a text body; the header is kept, the body rewritten.
    @Test func aTextIPSKeepsItsHeaderLine() throws {
        let header =
            #"{"app_name":"Demo","timestamp":"2026-11-20 14:32:07.00 +0100","app_version":"1.0","#
            + #""slice_uuid":"4c4c4486-5555-3144-a175-2df7479ac8fa","build_version":"1","bug_type":"109","#
            + #""os_version":"iPhone OS 16.1 (20B82)","name":"Demo"}"#
        let body = try fixtureReport("Demo-arm64-ios.crash")
        let result = try ReportRewriter.rewrite(Array((header + "\n").utf8) + body, with: symbolicator)
        #expect(result.report.sourceFormat == .ipsText)
        let output = String(decoding: result.bytes, as: UTF8.self)
        #expect(output.hasPrefix(header + "\nIncident Identifier: 2F6B1E5C-8A0D-4C1B-9E7A-5D3C2B1A0F9E\n"))
        let expected = String(decoding: try fixtureReport("expected/Demo-arm64-ios.crash"), as: UTF8.self)
        #expect(output == header + "\n" + expected)
    }
}
