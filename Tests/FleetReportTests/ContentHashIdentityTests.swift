import APMInspectCore
import FleetReport
import FuzzReplaySupport
import JetsamParsing
import ReportInspection
import ReportRendering
import Testing

/// `contentHash` has one meaning (issue 40): the FNV-1a of the bytes read.
///
/// A JetsamEvent without an incident id is
/// identified by it in `memory-limits`, `scan`'s inventory and `report` alike, so two copies of one report count
/// once in each; before, `report` hashed the path and `scan` the per-process `hashValue` of the path.
@Suite struct ContentHashIdentityTests {
    static let noIncident =
        "Corpus/jetsam/ios9.3_iPhone7-2_pagesize4096_no-incident-id_vm-thrashing_per-process-limit.ips"

    /// The corpus report (no incident id in its header) without the body's `incident` either.
    static func bytes() throws -> [UInt8] {
        let path = FuzzReplayInputs.root.appendingPathComponent(noIncident).path
        let text = String(decoding: try FileReading.contents(atPath: path), as: UTF8.self)
        let line = " \"incident\" : \"152ED33E-4326-4AB1-A6DC-E17338993357\",\n"
        #expect(text.contains(line))
        return Array(text.replacingOccurrences(of: line, with: "").utf8)
    }

    @Test func copiesInTwoPlacesHaveOneIdentityInEveryCommand() throws {
        let bytes = try Self.bytes()
        let first = ReportInspector().inspect(bytes: bytes, path: "a/JetsamEvent.ips")
        let second = ReportInspector().inspect(bytes: bytes, path: "b/JetsamEvent.ips.synced")
        #expect(first.kind == .jetsamEvent)
        #expect(first.contentHash == ContentHash.of(bytes))
        #expect(second.contentHash == first.contentHash)

        guard case .evidence(let collected, partial: false) = MemoryLimitCollector().evidence(in: bytes) else {
            Issue.record("memory-limits read no evidence from \(Self.noIncident)")
            return
        }
        #expect(collected.identity == "content:\(ContentHash.text(ContentHash.of(bytes)))")

        let scanned = [ScanRecord(first).jetsam?.identity, ScanRecord(second).jetsam?.identity]
        #expect(scanned == [collected.identity, collected.identity])

        let reported = [first.fleetEvent.oom?.evidence.identity, second.fleetEvent.oom?.evidence.identity]
        #expect(reported == [collected.identity, collected.identity])

        var table = MemoryLimitTable(options: .init(includeBeta: true, includeModifiedKernels: true))
        #expect(table.add(try #require(first.fleetEvent.oom).evidence))
        #expect(!table.add(try #require(second.fleetEvent.oom).evidence))
    }

    @Test func theEnvelopeCarriesTheHashAndReadsItBack() throws {
        let bytes = try Self.bytes()
        let inspection = ReportInspector().inspect(bytes: bytes, path: "a/JetsamEvent.ips")
        let line = try JSONOutput.encode(inspection, pretty: false)
        #expect(line.contains("\"contentHash\":\"\(ContentHash.text(ContentHash.of(bytes)))\""))
        let decoded = try FleetEnvelope.decode(line: Array(line.utf8))
        #expect(decoded.oom?.evidence.identity == inspection.fleetEvent.oom?.evidence.identity)
    }

    /// NDJSON written before envelopes carried the hash: the file tells copies apart, as it did then.
    @Test func anEnvelopeWithoutTheHashIsIdentifiedByItsFile() throws {
        let inspection = ReportInspector().inspect(bytes: try Self.bytes(), path: "a/JetsamEvent.ips")
        var line = try JSONOutput.encode(inspection, pretty: false)
        let hashMember = "\"contentHash\":\"\(ContentHash.text(try #require(inspection.contentHash)))\","
        #expect(line.contains(hashMember))
        line = line.replacingOccurrences(of: hashMember, with: "")
        let decoded = try FleetEnvelope.decode(line: Array(line.utf8))
        #expect(decoded.oom?.evidence.identity == "file:a/JetsamEvent.ips")
    }

    /// Reports with an incident id keep it as their identity, whatever their bytes.
    @Test func anIncidentIdWinsOverTheHash() throws {
        let path = "Corpus/jetsam/ios13.3.1_iPhone8-2_second-report_per-process-limit_1450MB.ips"
        let bytes = try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path)
        let inspection = ReportInspector().inspect(bytes: bytes, path: path)
        let identity = try #require(ScanRecord(inspection).jetsam?.identity)
        #expect(!identity.hasPrefix("content:") && identity.contains("|"))
        #expect(inspection.fleetEvent.oom?.evidence.identity == identity)
    }
}
