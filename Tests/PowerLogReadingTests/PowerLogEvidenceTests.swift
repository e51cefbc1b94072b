import APMInspectCore
import CZlib
import Foundation
import GRDB
import Testing

@testable import PowerLogReading

#if canImport(Glibc)
    import Glibc
#endif

/// The user's files are evidence: reading never writes beside them, temporary copies are bounded by what is useful
/// and always removed, and a FIFO is read once.
@Suite struct PowerLogEvidenceTests {
    /// A private folder holding `evidence/` (the inputs) and `tmp/` (the reader's temporary directory).
    private struct Workspace {
        let root: String
        var evidence: String { root + "/evidence" }
        var temporary: String { root + "/tmp" }

        init() throws {
            root = try CorpusSupport.scratchFolder()
            try FileManager.default.createDirectory(atPath: root + "/evidence", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }

        /// Every file of `evidence/` with its bytes: compared before and after a read.
        func snapshot() throws -> [String: [UInt8]] {
            var files: [String: [UInt8]] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: evidence) {
                files[name] = try FileReading.contents(atPath: evidence + "/" + name)
            }
            return files
        }

        var temporaryIsEmpty: Bool {
            (try? FileManager.default.contentsOfDirectory(atPath: temporary))?.isEmpty == true
        }

        var options: PowerLogReadOptions { PowerLogReadOptions(temporaryDirectory: temporary) }
    }

    /// A WAL-mode PowerLog checkpointed and closed, so the database file alone holds every row (as a copy taken
    /// without its `-wal` sibling does); its header still says WAL.
    private func walModeDatabase(at path: String) throws {
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                      'timestamp' REAL, 'IsCharging' INTEGER, 'Level' REAL);
                    INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level)
                      VALUES (1000000000, 0, 50), (1000000600, 0, 49), (1000001200, 0, 48);
                    """
            )
        }
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try pool.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// gzip of `bytes` followed by `zeros` zero bytes, compressed in pieces (the zeros are never all in memory).
    private func gzip(_ bytes: [UInt8], zeros: Int) throws -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(
            &stream,
            Z_BEST_SPEED,
            Z_DEFLATED,
            31,
            8,
            Z_DEFAULT_STRATEGY,
            ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size)
        )
        try #require(status == Z_OK)
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        func pump(_ input: [UInt8], flush: Int32) {
            var input = input
            input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                repeat {
                    let produced = buffer.withUnsafeMutableBufferPointer { outBuffer -> Int in
                        stream.next_out = outBuffer.baseAddress
                        stream.avail_out = uInt(outBuffer.count)
                        _ = CZlib.deflate(&stream, flush)
                        return outBuffer.count - Int(stream.avail_out)
                    }
                    output += buffer[0..<produced]
                } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
            }
        }
        pump(bytes, flush: Z_NO_FLUSH)
        let block = [UInt8](repeating: 0, count: 1 << 20)
        var left = zeros
        while left > 0 {
            let count = min(left, block.count)
            pump(Array(block[0..<count]), flush: Z_NO_FLUSH)
            left -= count
        }
        pump([], flush: Z_FINISH)
        return output
    }

    @Test func walModeDatabaseWithoutItsLogIsReadWithoutWritingBesideIt() throws {
        let space = try Workspace()
        defer { space.remove() }
        let path = space.evidence + "/CurrentPowerlog.PLSQL"
        try walModeDatabase(at: path)
        let before = try space.snapshot()
        // Bytes 18 and 19 of the header are 2 in WAL mode: the case SQLite would create -shm and -wal for.
        let header = try #require(before["CurrentPowerlog.PLSQL"])
        #expect(header[18] == 2 && header[19] == 2)
        let reader = PowerLogReader(options: space.options)
        let single = try reader.read(path: path)
        #expect(single.report.battery?.samples.map(\.level) == [50, 49, 48])
        #expect(single.report.sources.first?.withWriteAheadLog == false)
        let merged = try reader.read(paths: [path])
        #expect(merged.report.battery?.samples.count == 3)
        #expect(try space.snapshot() == before)
        #expect(space.temporaryIsEmpty)
    }

    @Test func immutableURIEscapesEveryReservedByte() {
        #expect(PowerLogDatabase.immutableURI("/a b/x?y#z%.PLSQL") == "file:/a%20b/x%3Fy%23z%25.PLSQL?immutable=1")
        #expect(PowerLogDatabase.immutableURI("rel.PLSQL").hasSuffix("/rel.PLSQL?immutable=1"))
        #expect(PowerLogDatabase.immutableURI("rel.PLSQL").hasPrefix("file:/"))
    }

    @Test func paddedGzipIsInflatedOnlyAsFarAsTheDatabaseDeclares() throws {
        let space = try Workspace()
        defer { space.remove() }
        let database = space.root + "/source.PLSQL"
        try walModeDatabase(at: database)
        let bytes = try FileReading.contents(atPath: database)
        let path = space.evidence + "/padded.PLSQL.gz"
        // 64 MiB of zeros after the database: with a 1 MiB bound the read succeeds only if inflating stops at the
        // database's own size.
        try Data(try gzip(bytes, zeros: 64 << 20)).write(to: URL(fileURLWithPath: path))
        let before = try space.snapshot()
        var options = space.options
        options.maxDecompressedBytes = 1 << 20
        let result = try PowerLogReader(options: options).read(path: path)
        #expect(result.report.battery?.samples.count == 3)
        #expect(result.report.sources.first?.format == "gzip")
        #expect(
            result.diagnostics.contains {
                $0.severity == .warning && $0.code == .powerlogGzipPastDeclaredSize
            }
        )
        #expect(PowerLogReader.declaredDatabaseSize(Array(bytes.prefix(100))) == bytes.count)
        #expect(try space.snapshot() == before)
        #expect(space.temporaryIsEmpty)
    }

    @Test func gzipDeclaringMoreThanTheLimitIsRefusedBeforeAnyByteIsWritten() throws {
        let space = try Workspace()
        defer { space.remove() }
        let database = space.root + "/source.PLSQL"
        try walModeDatabase(at: database)
        var bytes = try FileReading.contents(atPath: database)
        // Page count 0x00100000 (4 GiB of 4 KiB pages), kept valid by matching the change counter.
        bytes.replaceSubrange(28..<32, with: [0x00, 0x10, 0x00, 0x00])
        bytes.replaceSubrange(92..<96, with: Array(bytes[24..<28]))
        let path = space.evidence + "/huge.PLSQL.gz"
        try Data(try gzip(bytes, zeros: 1 << 20)).write(to: URL(fileURLWithPath: path))
        var options = space.options
        options.maxDecompressedBytes = 64 << 20
        #expect {
            try PowerLogReader(options: options).read(path: path)
        } throws: { error in
            guard let error = error as? PowerLogError else { return false }
            return error.code == .decompression
        }
        #expect(space.temporaryIsEmpty)
    }

    @Test func gzipWithoutADatabaseHeaderIsRefusedAtItsFirstBytes() throws {
        let space = try Workspace()
        defer { space.remove() }
        let path = space.evidence + "/zeros.PLSQL.gz"
        try Data(try gzip(Array("SQLite format 3".utf8), zeros: 0)).write(to: URL(fileURLWithPath: path))
        let zeros = space.evidence + "/bomb.PLSQL.gz"
        try Data(try gzip([], zeros: 256 << 20)).write(to: URL(fileURLWithPath: zeros))
        let reader = PowerLogReader(options: space.options)
        for file in [path, zeros] {
            #expect {
                try reader.read(path: file)
            } throws: { error in
                (error as? PowerLogError)?.code == .notSQLite
            }
        }
        #expect(space.temporaryIsEmpty)
    }

    @Test func legacyHeaderFallsBackToTheDecompressionLimitCheckedWhileWriting() throws {
        let space = try Workspace()
        defer { space.remove() }
        let database = space.root + "/source.PLSQL"
        try walModeDatabase(at: database)
        var bytes = try FileReading.contents(atPath: database)
        // A change counter that does not match bytes 92–95: the page count is not to be trusted (pre-3.7.0).
        bytes[95] ^= 0xFF
        let path = space.evidence + "/legacy.PLSQL.gz"
        try Data(try gzip(bytes, zeros: 8 << 20)).write(to: URL(fileURLWithPath: path))
        var options = space.options
        options.maxDecompressedBytes = 2 << 20
        #expect {
            try PowerLogReader(options: options).read(path: path)
        } throws: { error in
            guard let error = error as? PowerLogError else { return false }
            // wording: the error names the limit that fired (size, not ratio) and its figure.
            return error.code == .decompression && error.message.contains("past 2097152 bytes (size limit)")
        }
        #expect(space.temporaryIsEmpty)
    }

    @Test func fifoIsReadOnceThroughAPrivateCopy() throws {
        let space = try Workspace()
        defer { space.remove() }
        let database = space.root + "/source.PLSQL"
        try walModeDatabase(at: database)
        let bytes = try FileReading.contents(atPath: database)
        let fifo = space.evidence + "/stream.PLSQL"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = PowerLogReader(options: space.options)
        for merge in [false, true] {
            let writer = Thread {
                let fd = open(fifo, O_WRONLY)
                guard fd >= 0 else { return }
                _ = TemporaryFiles.writeAll(fd, bytes)
                close(fd)
            }
            writer.start()
            let result = merge ? try reader.read(paths: [fifo]) : try reader.read(path: fifo)
            #expect(result.report.battery?.samples.count == 3)
            #expect(result.report.sources.first?.path == fifo)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: space.evidence) == ["stream.PLSQL"])
        #expect(space.temporaryIsEmpty)
    }
}
