import APMInspectCore
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import ReportSources
import Testing

@testable import apm_inspect

#if canImport(Glibc)
    import Glibc
#endif

/// `scan` of archives: members that need a real file get a private, exclusively created one, and an archive given
/// through a FIFO (`scan <(cat x.tar.gz)`) is read once and scanned like a file.
@Suite struct ArchiveScannerTests {
    /// A real JetsamEvent from the project's corpus, the report inside the generated archives.
    static func jetsamReport() throws -> [UInt8] {
        let url = FuzzReplayInputs.root.appendingPathComponent(
            "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"
        )
        return try [UInt8](Data(contentsOf: url))
    }

    /// Writes `bytes` into the FIFO at `path` from another thread, as `<(cat file)` would: the open blocks until the
    /// scanner opens the FIFO for reading.
    static func write(_ bytes: [UInt8], throughFIFO path: String) {
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = TemporaryFiles.writeAll(fd, bytes)
            close(fd)
        }
        writer.start()
    }

    static func archive(_ report: [UInt8]) -> [UInt8] {
        TarFixture.gzip(
            TarFixture.tar([
                .init(name: "sysdiagnose_2024/crashes_and_spins/JetsamEvent-2024-03-01-180000.ips", data: report)
            ])
        )
    }

    @Test func aMemberCopyIsCreatedExclusivelyAndNeverWrittenThroughAPlantedLink() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let outside = try TemporaryFiles.makeFolder(prefix: "apm-inspect-test-outside")
        defer { TemporaryFiles.remove(outside) }
        let victim = outside + "/victim"
        try TemporaryFiles.write(Array("untouched".utf8), toNewFile: victim)
        // The first member copy the scan makes is `0-<name>`: a link planted there must not be followed or
        // replaced.
        let planted = temporary.path + "/0-Powerlog.PLSQL"
        #expect(symlink(victim, planted) == 0)
        var database = Array("SQLite format 3\u{0}".utf8)
        database += [UInt8](repeating: 0, count: 4096 - database.count)
        let tar = TarFixture.tar([.init(name: "logs/Powerlog.PLSQL", data: database)])
        let input = outside + "/archive.tar"
        try TemporaryFiles.write(tar, toNewFile: input)
        var inspections: [Inspection] = []
        let findings = ArchiveScanner(inspector: ReportInspector(), temporary: temporary).scan(archive: input) {
            inspections.append($0)
        }
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
        #expect(inspections.count == 1)
        #expect(inspections.first?.failure?.code == "unreadable")
        // wording: `unreadable` also covers the member itself; the words say it was the private copy that failed.
        #expect(inspections.first?.failure?.message.contains("cannot write a temporary copy") == true)
        #expect(try FileReading.contents(atPath: victim) == Array("untouched".utf8))
        var info = stat()
        #expect(lstat(planted, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the planted link was replaced")
    }

    @Test func aMemberCopyIsPrivateAndRemovedAfterReading() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        var database = Array("SQLite format 3\u{0}".utf8)
        database += [UInt8](repeating: 0, count: 4096 - database.count)
        let input = temporary.path + "/input.tar"
        try TemporaryFiles.write(TarFixture.tar([.init(name: "logs/Powerlog.PLSQL", data: database)]), toNewFile: input)
        var inspections: [Inspection] = []
        _ = ArchiveScanner(inspector: ReportInspector(), temporary: temporary).scan(archive: input) {
            inspections.append($0)
        }
        #expect(inspections.count == 1)
        // Named after the member, not the temporary copy, which is gone.
        #expect(inspections.first?.file == "\(input)!/logs/Powerlog.PLSQL")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left == ["input.tar"])
    }

    @Test func aTarGzThroughAFIFOIsScannedLikeAFile() throws {
        let report = try Self.jetsamReport()
        let bytes = Self.archive(report)
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let regular = temporary.path + "/sysdiagnose.tar.gz"
        try TemporaryFiles.write(bytes, toNewFile: regular)
        let fifo = temporary.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let scanner = ReportScanner(inspector: ReportInspector(), temporary: temporary, format: .text, sink: .console)
        Self.write(bytes, throughFIFO: fifo)
        let throughFIFO = scanner.scan(file: fifo)
        let fromFile = scanner.scan(file: regular)
        #expect(fromFile.records.count == 1)
        #expect(throughFIFO.records.count == fromFile.records.count)
        #expect(throughFIFO.records.first?.kind == .jetsamEvent)
        #expect(
            throughFIFO.records.first?.path
                == "\(fifo)!/sysdiagnose_2024/crashes_and_spins/JetsamEvent-2024-03-01-180000.ips"
        )
        #expect(throughFIFO.records.first?.jetsam == fromFile.records.first?.jetsam)
        #expect(throughFIFO.findings == fromFile.findings.map { $0.replacingOccurrences(of: regular, with: fifo) })
    }

    @Test func aReportThroughAFIFOIsStillInspected() throws {
        let report = try Self.jetsamReport()
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let fifo = temporary.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        Self.write(report, throughFIFO: fifo)
        let result = ReportScanner(inspector: ReportInspector(), temporary: temporary, format: .text, sink: .console)
            .scan(file: fifo)
        #expect(result.records.count == 1)
        #expect(result.records.first?.kind == .jetsamEvent)
        #expect(result.records.first?.path == fifo)
        #expect(result.records.first?.failure == nil)
    }
}
