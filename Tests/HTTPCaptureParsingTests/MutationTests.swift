import APMInspectCore
import Foundation
import PropertyBased
import Testing

@testable import HTTPCaptureParsing

/// Cut and corrupted copies of every Corpus/http file never trap the readers, and whatever is returned encodes.
@Suite struct MutationTests {
    static let names = [
        "chrome_h2_ssl-inside-connect.har", "chrome_h2_ssl-inside-connect.zhar", "firefox_cache-hits_local-offset.har",
        "legacy-1.1_array-headers_no-zone_bad-numbers.har", "safari_bom_wall-clock_memory-cache.har",
        "charles_session.chlsj", "charles_session.chlsx",
    ]

    @Test func mutatedCapturesNeverTrap() async throws {
        let seeds = try Self.names.map { try Corpus.bytes($0) }
        await propertyCheck(
            count: 150,
            input: Gen.int(in: 0...(seeds.count - 1)),
            Gen.int(in: 0...10_000),
            Gen.int(in: 0...10_000),
            Gen.uint8().array(of: 0...8)
        ) { which, cut, at, noise in
            var bytes = Array(seeds[which].prefix(cut))
            for (i, byte) in noise.enumerated() where at + i < bytes.count { bytes[at + i] = byte }
            if let result = try? HTTPCaptureReader().read(bytes) {
                #expect((try? JSONEncoder().encode(result.capture)) != nil)
                #expect(result.capture.summary.requests == result.capture.transactions.count)
            }
        }
    }
}
