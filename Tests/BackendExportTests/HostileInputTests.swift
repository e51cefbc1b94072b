import APMInspectCore
import BackendExport
import Foundation
import InputMutation
import Testing

/// Seeded hostile variants of every Corpus report (the fuzzer's mutation engine), read as far as they go and
/// written in every backend format: nothing traps, every document is JSON, and a variant's ids follow its bytes.
@Suite struct HostileInputTests {
    static let variantsPerFile = 24

    @Test(arguments: CorpusIncidents.files)
    func mutatedReportsGiveWellFormedEvents(file: String) throws {
        let original = try CorpusIncidents.bytes(file)
        let family = String(file.split(separator: "/").first ?? "")
        let input = MutationInput(bytes: original)
        let engine = MutationEngine(maxOutputBytes: 4 << 20)
        let sentry = SentryEventWriter(toolVersion: "test")
        let otlp = OTLPLogWriter(toolVersion: "test")
        let encoder = SortedJSONEncoder()
        var events = 0
        for iteration in 0..<Self.variantsPerFile {
            var rng = SplitMix64.forIteration(UInt64(iteration), seed: 0xBAC_E7D5)
            let variant = engine.mutate(input, rng: &rng).bytes
            guard let loaded = try? CorpusIncidents.load(bytes: variant, family: family) else { continue }
            let identified = BackendEvents.identified(loaded.incidents, contentDigest: loaded.digest)
            for (incident, id) in identified {
                let line = try encoder.encode(sentry.event(incident, id: id))
                #expect(!line.contains("\n"))
                let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(event?["event_id"] as? String == id.hex)
                let envelope = SentryEnvelope(eventID: id, payload: line).serialized(sentAt: "t", toolVersion: "v")
                #expect(envelope.utf8.count > line.utf8.count)
                events += 1
            }
            if !identified.isEmpty {
                let document = try encoder.encode(otlp.document(identified))
                #expect(try JSONSerialization.jsonObject(with: Data(document.utf8)) is [String: Any])
                let again = try CorpusIncidents.load(bytes: variant, family: family)
                #expect(again.digest == loaded.digest)
            }
        }
        // Some variants of every event-giving file still read as reports: the writers were exercised.
        if !CorpusIncidents.withoutEvents.contains(file) {
            #expect(events > 0, "no variant of \(file) gave an event")
        }
    }
}
