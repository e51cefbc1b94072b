import APMInspectCore
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import ReportSources
import Testing

/// `inspect` prints an archive's envelopes as they are read, when its turn comes (``InspectRun``), instead of holding
/// them all: the output must be what printing the held envelopes gave, input by input, in input order, with each
/// archive's own envelope after its reports.
@Suite struct InspectArchiveStreamingTests {
    /// Keeps what a run writes.
    final class Collector: @unchecked Sendable {
        private let lock = NSLockShim()
        private var bytes: [UInt8] = []

        var sink: OutputSink {
            OutputSink(bytes: { buffer in self.lock.withLock { self.bytes += buffer } }, error: { _ in })
        }

        var output: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
    }

    static let reports = [
        "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
        "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips",
        "Corpus/crash/ios8.1.2_109_text_body_exc_crash_sigabrt.ips",
    ]

    static func report(_ index: Int) throws -> [UInt8] {
        let url = FuzzReplayInputs.root.appendingPathComponent(reports[index % reports.count])
        return try [UInt8](Data(contentsOf: url))
    }

    /// A file, an archive of seven reports, a truncated archive (its findings make an envelope of their own), a file.
    static func inputs(in folder: String) throws -> [String] {
        let whole = TarFixture.tar(
            try (0..<7).map { TarFixture.Member(name: "reports/r\($0).crash", data: try report($0)) }
        )
        var cut = TarFixture.tar(
            try (0..<2).map { TarFixture.Member(name: "cut/c\($0).ips", data: try report($0 + 1)) },
            end: false
        )
        // Cut inside the last member's data: the reader says the archive ends early.
        cut.removeLast(600)
        let files: [(String, [UInt8])] = [
            ("a.crash", try report(0)), ("bundle.tar", whole), ("cut.tar", cut), ("z.ips", try report(1)),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return files.map { folder + "/" + $0.0 }
    }

    /// What `inspect` printed when every input's envelopes were held first: each input's, then its archive envelope.
    static func held(_ paths: [String], reader: InputReader, format: OutputFormat, oneObject: Bool) -> String {
        let collector = Collector()
        let printer = EnvelopePrinter(format: format, oneObject: oneObject, sink: collector.sink)
        for path in paths {
            let read = reader.read(.file(RawPath(path)))
            var envelopes = read.inspections
            // The text view says an archive's findings on standard error only.
            if !read.findings.isEmpty && format != .text {
                envelopes.append(.archive(read.shown, findings: read.findings))
            }
            printer.begin(count: envelopes.count, fromArchive: read.isArchive)
            for envelope in envelopes {
                if format == .text {
                    collector.sink.text(InspectionRenderer.styled(envelope, crashView: .standard), color: false)
                } else {
                    _ = printer.print(envelope)
                }
            }
        }
        printer.finish()
        return collector.output
    }

    static func streamed(_ paths: [String], reader: InputReader, format: OutputFormat, oneObject: Bool) -> String {
        let collector = Collector()
        let run = InspectRun(reader: reader, format: format, oneObject: oneObject, jobs: 3, sink: collector.sink)
        _ = run.run(paths.map { .file(RawPath($0)) })
        return collector.output
    }

    @Test(arguments: [OutputFormat.ndjson, .json, .text])
    func anArchiveStreamsTheEnvelopesHeldOnesGaveInInputOrder(format: OutputFormat) throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let paths = try Self.inputs(in: temporary.path)
        let reader = InputReader(inspector: ReportInspector(), temporary: temporary)
        let streamed = Self.streamed(paths, reader: reader, format: format, oneObject: false)
        #expect(streamed == Self.held(paths, reader: reader, format: format, oneObject: false))
        guard format == .ndjson else { return }
        let files = streamed.split(separator: "\n").map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let file = (object?["file"] as? String) ?? "?"
            return file.replacingOccurrences(of: temporary.path + "/", with: "") + " "
                + ((object?["kind"] as? String) ?? "?")
        }
        let expected =
            ["a.crash crashReport"] + (0..<7).map { "bundle.tar!/reports/r\($0).crash crashReport" }
            + ["cut.tar!/cut/c0.ips crashReport", "cut.tar archive", "z.ips crashReport"]
        #expect(files == expected)
    }

    /// A single input printed as one object (`-`) that turns out to be an archive: an array, of one envelope or
    /// several, as the archive's file gives (issue 46: standard input gives what the file gives).
    @Test(arguments: [1, 3])
    func aSingleArchiveIsAnArrayAsItsFileIs(reports: Int) throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let archive = temporary.path + "/one.tar"
        let tar = TarFixture.tar(
            try (0..<reports).map { TarFixture.Member(name: "r\($0).crash", data: try Self.report($0)) }
        )
        try Data(tar).write(to: URL(fileURLWithPath: archive))
        let reader = InputReader(inspector: ReportInspector(), temporary: temporary)
        let streamed = Self.streamed([archive], reader: reader, format: .json, oneObject: true)
        #expect(streamed == Self.held([archive], reader: reader, format: .json, oneObject: true))
        #expect(streamed.hasPrefix("["))
    }
}
