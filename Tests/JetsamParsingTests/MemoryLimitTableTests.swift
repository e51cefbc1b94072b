import APMInspectCore
import Testing

@testable import JetsamParsing

@Suite struct MemoryLimitTableTests {
    private func table(options: MemoryLimitTable.Options = .init()) throws -> MemoryLimitTable {
        var table = MemoryLimitTable(options: options)
        for name in CorpusSupport.jetsamFiles {
            let bytes = try CorpusSupport.bytes(name)
            let container = IPSContainer(bytes: bytes)
            guard JetsamParser.isJetsamEvent(container) else { continue }
            let evidence = try JetsamParser().memoryLimitEvidence(container) { MemoryLimitEvidence.contentHash(bytes) }
            table.add(evidence.evidence)
        }
        return table
    }

    @Test func corpusTable() throws {
        let table = try table()
        #expect(table.duplicates == 1)
        // The lone process entry names no device: skipped, never an `unknown` row.
        #expect(table.excluded == ["beta": 1, "not-iOS": 1, MemoryLimitTable.noDevice: 1])
        let rows = table.rows
        #expect(rows.count == 11)
        #expect(!rows.contains { $0.product == "unknown" })
        // The forum excerpt: product and top-level pageSize before an unbalanced `},`, the killed app's fields
        // after an elided `"processes" : [`.
        let thirteen = try #require(rows.first { $0.product == "iPhone14,5" })
        #expect(thirteen.foregroundLimitMB == LimitStatistics(min: 2880, median: 2880, max: 2880, count: 1))
        #expect(!thirteen.flags.contains("no-page-size"))
        let sixS = try #require(rows.first { $0.product == "iPhone8,2" })
        #expect(sixS.reports == 2)
        #expect(sixS.ramMB == 2048)
        #expect(sixS.foregroundLimitMB == LimitStatistics(min: 1450, median: 1450, max: 1450, count: 2))
        #expect(sixS.foregroundPercentOfRAM?.median == 70.8)
        let xsMax = try #require(rows.first { $0.product == "iPhone11,6" })
        #expect(xsMax.foregroundLimitMB == nil)
        #expect(xsMax.daemonLimitKills == 1)
        let eleven = try #require(rows.first { $0.product == "iPhone12,1" })
        #expect(eleven.backgroundLimitMB?.min == 1200)
        #expect(eleven.extensionLimitMB?.min == 30)
        #expect(!rows.contains { $0.product == "Mac14,2" })
    }

    @Test func includeAllKeepsBetaAndMac() throws {
        let rows = try table(
            options: .init(includeBeta: true, includeModifiedKernels: true, includeOtherPlatforms: true)
        ).rows
        #expect(rows.count == 13)
        #expect(!rows.contains { $0.product == "unknown" })
        #expect(rows.first { $0.product == "Mac14,2" }?.flags.contains("not-iOS") == true)
        #expect(rows.first { $0.product == "iPhone15,3" }?.flags.contains("beta") == true)
    }

    @Test func medianOfEvenCount() {
        #expect(LimitStatistics([1400, 1450, 1460, 1500])?.median == 1455)
        #expect(LimitStatistics([]) == nil)
    }
}

@Suite struct MemoryLimitCollectorTests {
    private let collector = MemoryLimitCollector()

    @Test func otherFilesAreNotErrors() throws {
        #expect(collector.evidence(in: Array("# README\nnotes".utf8)) == .notJetsam)
        #expect(collector.evidence(in: Array("Incident Identifier: 1\nException Type: EXC_CRASH\n".utf8)) == .notJetsam)
        let analytics = try CorpusSupport.bytes("coreanalytics-211_ios16.5_not-jetsam_per-process-limit-lookalike.ips")
        #expect(collector.evidence(in: analytics) == .notJetsam)
        #expect(collector.evidence(in: [0, 1, 2, 3]) == .notJetsam)
    }

    @Test func aJetsamHeaderOverATextBodyIsAFailureWithALocation() {
        let outcome = collector.evidence(in: Array("{\"bug_type\":\"298\"}\nthis is not json\n".utf8))
        guard case .failed(let location, _, let code) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(location?.line == 2)
        #expect(code == .unreadableBody)
    }

    @Test func truncatedReportStillGivesItsLimit() throws {
        let outcome = collector.evidence(in: try CorpusSupport.bytes("ios15.5_iPhone13-1_truncated-mid-string.ips"))
        guard case .evidence(let evidence, let partial) = outcome else {
            Issue.record("expected evidence, got \(outcome)")
            return
        }
        #expect(partial)
        #expect(evidence.kills.map(\.limitMB) == [2098])
    }

    @Test func unreadablePathIsAFailure() {
        guard case .failed(_, _, let code) = collector.evidence(atPath: "/nonexistent/apm-inspect/file.ips") else {
            Issue.record("expected a failure")
            return
        }
        #expect(code == .unreadable)
    }
}
