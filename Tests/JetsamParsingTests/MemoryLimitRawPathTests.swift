import APMInspectCore
import Foundation
import Testing

@testable import JetsamParsing

/// `memory-limits` reads files named by bytes: a name that is not UTF-8 (Latin-1 from a Windows share, a device
/// dump) is read like any other, not reported as "cannot open".
@Suite struct MemoryLimitRawPathTests {
    @Test func aReportWhoseNameIsNotUTF8IsRead() throws {
        let report = try CorpusSupport.bytes("ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips")
        var template = Array((NSTemporaryDirectory() + "/apm-inspect-limits-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        let folder = try #require(made.map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Latin-1 "café.ips": 0xE9 alone is not UTF-8.
        let path = RawPath(folder).appending(Array("caf".utf8) + [0xE9] + Array(".ips".utf8))
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        try #require(fd >= 0)
        let written = report.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try #require(written == report.count)
        #expect(!path.isUTF8)
        #expect(path.display == folder + "/caf\\xE9.ips")

        let collector = MemoryLimitCollector()
        let outcome = collector.evidence(at: path)
        #expect(outcome == collector.evidence(in: report))
        guard case .evidence(let evidence, _) = outcome else {
            Issue.record("expected evidence, got \(outcome)")
            return
        }
        #expect(evidence.kills.contains { $0.limitMB == 1450 })
        // The text form of the name cannot open the file: the reason the bytes are kept.
        guard case .failed(_, _, let code) = collector.evidence(atPath: path.display) else {
            Issue.record("the escaped name opened a file")
            return
        }
        #expect(code == .unreadable)
    }

    @Test func aMissingFileNamedByBytesIsAFailure() {
        let outcome = MemoryLimitCollector().evidence(at: RawPath(bytes: Array("/nonexistent/".utf8) + [0xFF]))
        guard case .failed(let location, _, let code) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(location == nil)
        #expect(code == .unreadable)
    }
}
