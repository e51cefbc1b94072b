import APMInspectCore
import Foundation
import FuzzReplaySupport
import ReportInspection
import Testing

/// A gzip of one report (`x.ips.gz`, as tools and people compress single reports) is that report, within the
/// limits archives are read with; a damaged or oversized one says why it was not read.
@Suite("a gzip of one report")
struct GzipReportTests {
    static func corpus(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: ReportInspectorTests.root.appendingPathComponent("Corpus/\(relative)")))
    }

    static let jetsam = "jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"
    static let crash = "crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"

    @Test("is read as the report inside, with a note, and hashed as that report", arguments: [jetsam, crash])
    func readThrough(_ relative: String) throws {
        let plain = try Self.corpus(relative)
        let inspector = ReportInspector()
        let direct = inspector.inspect(bytes: plain, path: "x")
        let compressed = inspector.inspect(bytes: TarFixture.gzip(plain), path: "x")
        #expect(compressed.kind == direct.kind)
        #expect(compressed.kind != .unknown)
        #expect(compressed.diagnostics.first?.code == .reportGunzipped)
        #expect(Array(compressed.diagnostics.dropFirst()) == direct.diagnostics)
        // The same JetsamEvent, plain or compressed, is one report to memory-limits' de-duplication.
        #expect(compressed.contentHash == direct.contentHash)
        let encoder = SortedJSONEncoder(pretty: false)
        var withoutNote = compressed
        withoutNote.diagnostics.removeFirst()
        #expect(try encoder.encode(withoutNote) == (try encoder.encode(direct)))
    }

    @Test("cut short: the part before the cut is read, with a warning")
    func truncated() throws {
        let plain = try Self.corpus(Self.jetsam)
        let gzip = TarFixture.gzip(plain)
        let inspection = ReportInspector().inspect(bytes: Array(gzip.prefix(gzip.count * 2 / 3)), path: "x")
        #expect(inspection.diagnostics.contains { $0.code == .reportGzipTruncated })
        #expect(inspection.diagnostics.first?.code == .reportGunzipped)
    }

    @Test("corrupt from the start: not read, said so, still the gzip it is")
    func corrupt() {
        let bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + Array(repeating: 0xFF, count: 64)
        let inspection = ReportInspector().inspect(bytes: bytes, path: "x")
        #expect(inspection.kind == .unknown)
        #expect(inspection.diagnostics.map(\.code) == [.reportGzipUnreadable])
    }

    @Test("past the expansion limit: not read, with the limit named")
    func bomb() throws {
        // 80 MiB of zeros compress to about 80 KB: past the 64 MiB floor and far past 100:1.
        let zeros = [UInt8](repeating: 0, count: 80 << 20)
        let inspection = ReportInspector().inspect(bytes: TarFixture.gzip(zeros), path: "x")
        #expect(inspection.kind == .unknown)
        #expect(inspection.diagnostics.map(\.code) == [.reportGzipTooLarge])
        #expect(inspection.diagnostics.first?.message.contains("expands past") == true)
    }

    @Test("a gzip inside the gzip is expanded once only")
    func nestedOnce() throws {
        let twice = TarFixture.gzip(TarFixture.gzip(try Self.corpus(Self.jetsam)))
        let inspection = ReportInspector().inspect(bytes: twice, path: "x")
        #expect(inspection.kind == .unknown)
        #expect(inspection.diagnostics.first?.code == .reportGunzipped)
        guard case .unrecognised(let summary) = inspection.report else {
            Issue.record(
                "expected the inner gzip as an unrecognised file, got \(String(describing: inspection.report))"
            )
            return
        }
        #expect(summary.format == .gzip)
    }
}
