import APMInspectCore
import FuzzReplaySupport
import Testing

@testable import HTTPCaptureParsing

/// `.har.gz` and `.zhar` whose start compresses extremely well, and decompression bombs.
@Suite struct CompressedCaptureTests {
    /// A valid HAR whose first megabytes are one long comment: the old sniffer inflated into a 1 MiB bound and
    /// called the file "gzip-compressed data".
    private static let paddedHAR = Array(
        ("{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"t\",\"version\":\"1\",\"comment\":\""
            + String(repeating: " ", count: 3 << 20)
            + "\"},\"entries\":[{\"startedDateTime\":\"2024-01-01T00:00:00.000Z\",\"time\":10,"
            + "\"request\":{\"method\":\"GET\",\"url\":\"https://example.com/\",\"httpVersion\":\"HTTP/1.1\","
            + "\"headers\":[],\"queryString\":[],\"headersSize\":-1,\"bodySize\":0},"
            + "\"response\":{\"status\":200,\"statusText\":\"OK\",\"httpVersion\":\"HTTP/1.1\",\"headers\":[],"
            + "\"content\":{\"size\":0,\"mimeType\":\"text/html\"},\"redirectURL\":\"\",\"headersSize\":-1,"
            + "\"bodySize\":0},\"cache\":{},\"timings\":{\"send\":1,\"wait\":8,\"receive\":1}}]}}").utf8
    )

    @Test(arguments: [true, false])
    func aVeryCompressibleStartIsStillAHAR(gzip: Bool) throws {
        let compressed = Compressing.deflate(Self.paddedHAR, gzip: gzip)
        #expect(compressed.count < 10_000)
        #expect(HTTPCaptureReader.recognise(compressed) == .httpArchive)
        let result = try HTTPCaptureReader().read(compressed)
        #expect(result.capture.transactions.count == 1)
        #expect(result.capture.compression == (gzip ? "gzip" : "zlib"))
    }

    @Test(arguments: [true, false])
    func aBombStopsAtTheExpansionRatioAndSaysSo(gzip: Bool) throws {
        // 80 MB of spaces compress to about 80 KB: past the 64 MiB floor, far past 100:1.
        let bomb = Compressing.deflate(
            Array("{\"log\":{\"entries\":[".utf8) + [UInt8](repeating: 0x20, count: 80 << 20)
        )
        let compressed = gzip ? bomb : Compressing.deflate([UInt8](repeating: 0x20, count: 80 << 20), gzip: false)
        do {
            _ = try HTTPCaptureReader().read(compressed)
            Issue.record("a decompression bomb was read")
        } catch {
            #expect(error.code == .compression)
            // wording: the error names the limit that fired (ratio, not size) and its figures.
            #expect(error.message.contains("expansion-ratio limit: 100:1 of \(compressed.count) compressed bytes"))
        }
        // The absolute bound still applies, and says it is the one that fired.
        var options = HTTPCaptureOptions()
        options.maxDecompressedBytes = 1 << 20
        #expect(throws: HTTPCaptureError.self) { try HTTPCaptureReader(options: options).read(compressed) }
        do {
            _ = try HTTPCaptureReader(options: options).read(compressed)
        } catch {
            // wording: the error names the limit that fired (size, not ratio).
            #expect(error.message.contains("(size limit)"))
        }
    }
}
