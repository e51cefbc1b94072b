import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// The pcap/pcapng files in Corpus/http are exactly what ``GeneratedCaptures`` writes.
///
/// Run once with `HTTP_CORPUS_WRITE=1` to (re)write them after changing a scenario.
@Suite struct GeneratedCorpusTests {
    @Test(arguments: GeneratedCaptures.all.map(\.0))
    func corpusFileMatchesWriter(name: String) throws {
        let expected = try #require(GeneratedCaptures.all.first { $0.0 == name }?.1)
        let path = Corpus.directory + "/" + name
        if ProcessInfo.processInfo.environment["HTTP_CORPUS_WRITE"] == "1" {
            try Data(expected).write(to: URL(fileURLWithPath: path))
        }
        let onDisk = try Corpus.bytes(name)
        #expect(onDisk == expected, "\(name) differs from GeneratedCaptures; rerun with HTTP_CORPUS_WRITE=1")
    }
}
