import Foundation
import ReportRendering
import Testing

/// Text tables fit the terminal: no line wider than `COLUMNS` (100 when unset or not a number), long cells
/// shortened in the middle, `--wide` printing them whole (issue 46).
@Suite("text output fits COLUMNS")
struct TableWidthCommandTests {
    static let marker = "\u{2026}"
    /// A frame symbol 300 columns wide: a C++ template or a Swift closure in a generic gets there.
    static let longSymbol = "ThumbnailCache.entry" + String(repeating: "Generic", count: 40) + "(for:)"

    /// The corpus's text crash report with its crashed frame renamed to ``longSymbol``, in `folder`.
    static func longCrash(in folder: URL) throws -> String {
        let source = BuiltCommandTests.root.appendingPathComponent(BuiltCommandTests.crashText)
        let text = try String(contentsOf: source, encoding: .utf8)
        let renamed = text.replacingOccurrences(of: "ThumbnailCache.entry(for:)", with: longSymbol)
        #expect(renamed != text)
        let path = folder.appendingPathComponent("long.crash").path
        try renamed.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func widest(_ text: String) -> Int {
        text.split(separator: "\n").map { (line: Substring) in TextTable.displayWidth(String(line)) }.max() ?? 0
    }

    @Test(
        "inspect's frame table at COLUMNS 80, 100, unset and not a number; --wide prints the symbol whole",
        arguments: [("80", 80), ("100", 100), ("", 100), ("wide", 100), ("132", 132)]
    )
    func crashFrames(columns: String, limit: Int) throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let crash = try Self.longCrash(in: folder)
        let run = try BuiltCommandTests.run(bin, ["inspect", crash], environment: ["COLUMNS": columns])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.widest(run.stdout) <= limit, "\(run.stdout)")
        let frame = try #require(run.stdout.split(separator: "\n").first { $0.contains("0x102a20b80") })
        // Both ends of the symbol and the frame's offset and file are kept around the marker.
        #expect(frame.contains("  ThumbnailCache") && frame.contains(Self.marker), "\(frame)")
        #expect(frame.hasSuffix(".swift:42)"), "\(frame)")

        let wide = try BuiltCommandTests.run(bin, ["inspect", "--wide", crash], environment: ["COLUMNS": columns])
        #expect(wide.stdout.contains(Self.longSymbol + " + 64"))
        #expect(Self.widest(wide.stdout) > 300)
    }

    @Test("every text view of the corpus fits 100 columns when COLUMNS is unset")
    func corpus() throws {
        let bin = try BuiltCommandTests.binary()
        let runs: [[String]] = [
            ["scan", "Corpus"], ["report", "Corpus"], ["memory-limits", "Corpus"], ["energy", "Corpus/powerlog"],
            ["http", "Corpus/http"], ["inspect", "Corpus/crash"], ["inspect", "Corpus/watchdog"],
            ["inspect", "Corpus/kscrash"], ["inspect", "Corpus/metrickit"], ["inspect", "Corpus/jetsam"],
            ["inspect", "--threads", "all", "--images", "--registers", "Corpus/crash"],
        ]
        var widest = 0
        for arguments in runs {
            let run = try BuiltCommandTests.run(bin, arguments, environment: ["COLUMNS": ""])
            #expect(!run.signalled && run.status <= 1, "\(arguments)")
            let width = Self.widest(run.stdout)
            widest = max(widest, width)
            #expect(width <= 100, "\(arguments): \(width)")
        }
        #expect(widest > 80)
    }
}

/// `--dsym` and `--symbols` take one value each time they are given and never the paths after them.
@Suite("--dsym and --symbols take one value per occurrence")
struct SymbolOptionParsingTests {
    static let dsyms = "Tests/SymbolicationTests/Fixtures"
    static let report = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips"

    @Test(
        "the path after --dsym or --symbols VALUE is an input, in every command that has them",
        arguments: [
            ["symbolicate", "--dsym", dsyms, report],
            ["symbolicate", "--dsym", dsyms, "--dsym", dsyms, report],
            ["symbolicate", "--symbols", dsyms, report],
            ["symbolicate", "--format", "json", "--dsym", dsyms, report],
            ["inspect", "--format", "json", "--dsym", dsyms, report],
            ["inspect", "--format", "json", "--symbols", dsyms, report],
            ["translate", "--dsym", dsyms, report],
            ["scan", "--format", "ndjson", "--dsym", dsyms, report],
        ]
    )
    func oneValue(arguments: [String]) throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BuiltCommandTests.run(
            bin,
            arguments + ["--symbol-cache", folder.path],
            environment: ["APM_INSPECT_SYMBOLS": ""]
        )
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        // The report was read as the report, and symbolicated with the dSYMs: its app frame has its name.
        #expect(run.stdout.contains("scale") && run.stdout.contains("main.c"), "\(arguments)")
    }

    @Test("two paths after one --dsym: the second is a report, not a second dSYM")
    func secondPathIsAnInput() throws {
        let bin = try BuiltCommandTests.binary()
        let run = try BuiltCommandTests.run(bin, ["symbolicate", "--dsym", Self.dsyms, Self.report, Self.report])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "==> \(Self.report) <==").count == 3)
    }
}
