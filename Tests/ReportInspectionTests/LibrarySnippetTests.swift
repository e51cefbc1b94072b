import APMInspectCore
import CrashReportParsing
import Foundation
import HTTPCaptureParsing
import JetsamParsing
import ReportInspection
import Testing

/// The README's "Use it as a library" snippets, compiled and run here: `Scripts/update-readme.py` copies the
/// lines between each `// README:` marker and `// README end` into README.md, and the last test fails when the two
/// differ, so a snippet cannot rot.
@Suite struct LibrarySnippetTests {
    static let root = CorpusGoldenTests.root

    /// The README's snippets name Corpus files relative to the repository root, where `swift test` runs.
    @Test func anyFile() throws {
        try #require(
            FileManager.default.fileExists(atPath: "Corpus/crash"),
            "run the tests from the repository root (\(Self.root.path)), as the README says"
        )
        let (kind, crashed) = { () -> (FileKind, String?) in
            // README: any-file
            let path = "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
            let inspection = ReportInspector().inspect(path: path)
            var crashed: String?
            if case .crash(let report) = inspection.report {
                crashed = report.threads.first { $0.crashed }?.frames.first?.symbol
            }
            for diagnostic in inspection.diagnostics {
                print(diagnostic.severity, diagnostic.message)
            }
            // README end
            return (inspection.kind, crashed)
        }()
        #expect(kind == .crashReport)
        #expect(crashed == "ThumbnailCache.entry(for:)")
    }

    @Test func uploadToEnvelope() throws {
        let upload = try FileReading.contents(
            atPath: Self.root.appendingPathComponent("Corpus/kscrash/v2.0_ios12.4_arm64_sigabrt_abort_signal.json").path
        )
        let json: String = try {
            // README: upload
            // `upload` holds the bytes a device sent; the name is only what the envelope calls them.
            let inspection = ReportInspector().inspect(bytes: upload, path: "upload-42.json")
            let json = try SortedJSONEncoder().encode(inspection)  // what `inspect --format ndjson` prints
            // README end
            return json
        }()
        #expect(json.hasPrefix(#"{"diagnostics":"#))
        #expect(json.contains(#""kind":"kscrash""#))
        #expect(json.contains(#""schemaVersion":1"#))
    }

    @Test func crashReport() throws {
        let bytes = try FileReading.contents(
            atPath: Self.root.appendingPathComponent("Corpus/crash/ios8.1.2_109_text_body_exc_crash_sigabrt.ips").path
        )
        // README: crash
        let result = try CrashReportParser().parse(bytes)
        let report = result.report
        let summary = "\(report.process ?? "?") \(report.appVersion ?? "?"): \(report.exception?.type ?? "?")"
        // README end
        #expect(summary == "Quill 3.1: EXC_CRASH")
    }

    @Test func jetsamLimits() throws {
        let bytes = try FileReading.contents(
            atPath: Self.root.appendingPathComponent(
                "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"
            ).path
        )
        // README: jetsam
        let event = try JetsamParser().parse(bytes).event
        let killed = event.processes.filter { $0.reason == "per-process-limit" }.compactMap(\.name)
        var table = MemoryLimitTable()
        _ = table.add(MemoryLimitEvidence(event: event, contentHash: MemoryLimitEvidence.contentHash(bytes)))
        let limit = table.rows.first?.foregroundLimitMB?.median  // 1450.0 on this iPhone 6s Plus
        // README end
        #expect(event.product == "iPhone8,2")
        #expect(!killed.isEmpty)
        #expect(limit == 1450)
    }

    @Test func httpCapture() throws {
        let bytes = try FileReading.contents(
            atPath: Self.root.appendingPathComponent("Corpus/http/chrome_h2_ssl-inside-connect.har").path
        )
        // README: http
        let capture = try HTTPCaptureReader().read(bytes).capture
        let slowest = capture.summary.slowest.first.map { capture.transactions[$0].url }
        let p90 = capture.summary.overall.total.p90  // milliseconds
        // README end
        #expect(capture.summary.requests == capture.transactions.count)
        #expect(slowest != nil)
        #expect(p90 > 0)
    }

    /// The snippets above, as README.md shows them.
    @Test func readmeShowsTheseSnippets() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let snippets = Self.snippets(in: source)
        #expect(snippets.count == 5)
        for (name, code) in snippets {
            #expect(readme.contains("```swift\n" + code + "```\n"), "README.md lacks the snippet \(name)")
        }
    }

    /// The marked regions, dedented (the rule update-readme.py follows).
    static func snippets(in source: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var name: String?
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("// README: ") {
                name = String(trimmed.dropFirst("// README: ".count))
                lines = []
            } else if trimmed == "// README end", let current = name {
                let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                result.append((current, lines.map { String($0.dropFirst(indent)) + "\n" }.joined()))
                name = nil
            } else if name != nil {
                lines.append(line)
            }
        }
        return result
    }
}
