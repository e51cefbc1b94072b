import CZlib
import Foundation
import Testing

@testable import APMInspectCore

@Suite struct InflateTests {
    /// Compresses with the system zlib: `windowBits` 15 for the zlib format, 31 for gzip.
    private func deflate(_ input: [UInt8], windowBits: Int32) -> [UInt8] {
        var stream = z_stream()
        let initialised = deflateInit2_(
            &stream,
            Z_BEST_COMPRESSION,
            Z_DEFLATED,
            windowBits,
            8,
            Z_DEFAULT_STRATEGY,
            ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size)
        )
        #expect(initialised == Z_OK)
        var input = input
        var output = [UInt8](repeating: 0, count: input.count + 1024)
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
            }
        }
        let count = Int(stream.total_out)
        deflateEnd(&stream)
        return Array(output[0..<count])
    }

    private var sample: [UInt8] {
        Array((0..<5000).map { "line \($0) of a report\n" }.joined().utf8)
    }

    @Test(arguments: [Int32(15), Int32(31)])
    func roundTripsZlibAndGzip(windowBits: Int32) throws {
        let compressed = deflate(sample, windowBits: windowBits)
        #expect(compressed.count < sample.count / 4)
        let result = try Inflate.decompress(compressed)
        #expect(result.bytes == sample)
        #expect(!result.isTruncated)
    }

    @Test func truncatedStreamGivesItsReadablePart() throws {
        let compressed = deflate(sample, windowBits: 31)
        let result = try Inflate.decompress(Array(compressed.prefix(compressed.count / 2)))
        #expect(result.isTruncated)
        #expect(!result.bytes.isEmpty)
        #expect(Array(sample.prefix(result.bytes.count)) == result.bytes)
    }

    @Test func outputBoundStopsBombs() {
        let bomb = deflate([UInt8](repeating: 0, count: 4 << 20), windowBits: 31)
        #expect(bomb.count < 10_000)
        #expect { try Inflate.decompress(bomb, maxOutputBytes: 1 << 20) } throws: {
            ($0 as? InputError)?.code == .tooLarge
        }
    }

    @Test func garbageIsASyntaxError() {
        #expect {
            try Inflate.decompress(Array("not compressed at all".utf8))
        } throws: {
            ($0 as? InputError)?.code == .syntax
        }
    }

    @Test func decompressesFileToFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apm-inflate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in.gz").path
        let destination = folder.appendingPathComponent("out").path
        try Data(deflate(sample, windowBits: 31)).write(to: URL(fileURLWithPath: source))
        let outcome = try Inflate.decompressFile(at: source, to: destination)
        #expect(!outcome.isTruncated)
        #expect(!outcome.stoppedAtLength)
        #expect(outcome.bytesWritten == sample.count)
        #expect(try FileReading.contents(atPath: destination) == sample)
    }

    @Test func fileDecompressionStopsWhereTheHeadSaysAndNeverOverwrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apm-inflate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in.gz").path
        // 1 KiB of content followed by 64 MiB of zeros: only the content is worth writing.
        let content = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(deflate(content + [UInt8](repeating: 0, count: 64 << 20), windowBits: 31))
            .write(to: URL(fileURLWithPath: source))
        var seen: [UInt8] = []
        let short = folder.appendingPathComponent("short").path
        let outcome = try Inflate.decompressFile(at: source, to: short, headLength: 100) { head in
            seen = head
            return content.count
        }
        // The head is the first piece zlib gave (at least the 100 bytes asked for), before anything was written.
        #expect(seen.count >= 100)
        #expect(Array(seen.prefix(content.count)) == Array(content.prefix(seen.count)))
        #expect(outcome.stoppedAtLength && !outcome.isTruncated && outcome.bytesWritten == content.count)
        #expect(try FileReading.contents(atPath: short) == content)
        // A bound below the data fires while writing: nothing past it reaches the disk.
        let bounded = folder.appendingPathComponent("bounded").path
        #expect(throws: InputError.self) {
            try Inflate.decompressFile(at: source, to: bounded, maxOutputBytes: 1 << 20)
        }
        #expect(try FileReading.contents(atPath: bounded).count <= 1 << 20)
        // A refusal from the head writes nothing at all.
        let refused = folder.appendingPathComponent("refused").path
        #expect(throws: InputError.self) {
            try Inflate.decompressFile(at: source, to: refused, headLength: 100) { _ throws(InputError) in
                throw InputError(.wrongKind, "not wanted")
            }
        }
        #expect(try FileReading.contents(atPath: refused).isEmpty)
        // The destination is created exclusively: an existing file is never overwritten.
        #expect(throws: InputError.self) { try Inflate.decompressFile(at: source, to: short) }
        #expect(try FileReading.contents(atPath: short) == content)
    }
}
