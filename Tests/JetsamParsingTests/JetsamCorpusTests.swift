import APMInspectCore
import Foundation
import Testing

@testable import JetsamParsing

@Suite struct JetsamCorpusTests {
    @Test func corpusIsPresent() {
        #expect(CorpusSupport.jetsamFiles.count >= 14)
    }

    /// The fast memory-limit path gives the same evidence as the full model, file by file.
    @Test(arguments: CorpusSupport.jetsamFiles.filter { !$0.hasPrefix("coreanalytics-211") })
    func fastEvidenceEqualsFullModel(name: String) throws {
        let bytes = try CorpusSupport.bytes(name)
        let container = IPSContainer(bytes: bytes)
        let parser = JetsamParser()
        let full = try parser.parse(container)
        let hash = MemoryLimitEvidence.contentHash(bytes)
        let fast = try parser.memoryLimitEvidence(container) { hash }
        #expect(fast.evidence == MemoryLimitEvidence(event: full.event, contentHash: hash))
        #expect(fast.isPartial == full.event.isPartial)
    }

    @Test func workedExampleIPhone6sPlus() throws {
        let result = try JetsamParser().parse(
            CorpusSupport.bytes("ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips")
        )
        let event = result.event
        #expect(event.product == "iPhone8,2")
        #expect(event.deviceName == "iPhone 6s Plus")
        #expect(event.osVersion == "13.3.1")
        #expect(event.pageSize == 16384)
        let app = try #require(event.processes.first { $0.reason == "per-process-limit" })
        #expect(app.rpages == 92806)
        #expect(app.role == .foregroundApp)
        #expect(app.footprintBytes == 1_520_533_504)
        #expect(app.limitMB == 1450)
        #expect(event.ram?.nominalMB == 2048)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func fourKilobytePagesAreNotAssumedAway() throws {
        let event = try JetsamParser().parse(
            CorpusSupport.bytes("ios11.2.6_iPhone7-1_pagesize4096_per-process-limit_650MB.ips")
        ).event
        #expect(event.pageSize == 4096)
        let app = try #require(event.processes.first { $0.limitMB != nil })
        #expect(app.footprintBytes == 166_400 * 4096)
        #expect(app.limitMB == 650)
    }

    @Test func daemonLimitsAreNotAppLimits() throws {
        let event = try JetsamParser().parse(
            CorpusSupport.bytes(
                "ios12.4.1_iPhone11-6_ale-flag_120-processes_proc-thrashing_daemon-per-process-limit.ips"
            )
        ).event
        let killed = event.killedProcesses
        #expect(killed.count == 43)
        #expect(killed.filter { $0.reason == "proc-thrashing" }.count == 40)
        let daemon = try #require(killed.first { $0.reason == "per-process-limit" })
        #expect(daemon.name == "mediaanalysisd")
        #expect(daemon.role == .daemon)
        #expect(daemon.limitMB == 400)
        #expect(event.header?["ale_flag"] == .bool(true))
    }

    @Test func modernPriorityScaleAndFreezeSkipReason() throws {
        let event = try JetsamParser().parse(
            CorpusSupport.bytes("ios16.5_iPhone14-7_priority-x10_freeze-skip-reason_per-process-limit.ips")
        ).event
        #expect(event.priorityScale == .modern)
        let app = try #require(event.processes.first { $0.reason == "per-process-limit" })
        #expect(app.priority == 100)
        #expect(app.normalizedPriority == 100)
        #expect(app.priorityBand == "FOREGROUND")
        #expect(event.processes.contains { $0.freezeSkipReason == "out-of-budget" })
    }

    @Test func legacyPrioritiesAreNormalised() throws {
        let event = try JetsamParser().parse(
            CorpusSupport.bytes("ios14.4_iPhone12-1_priority_physicalPages_background-and-widget-per-process-limit.ips")
        ).event
        #expect(event.priorityScale == .legacy)
        let widget = try #require(event.processes.first { $0.name == "WeatherNowWidgetExtension" })
        #expect(widget.role == .extension)
        #expect(widget.limitMB == 30)
        let launchd = try #require(event.processes.first { $0.priority == 999 })
        #expect(launchd.normalizedPriority == 999)
        #expect(event.processes.contains { $0.physicalPages?.internal?.count == 2 })
        let background = try #require(event.processes.first { $0.name == "Orbit Notes" })
        #expect(background.role == .backgroundApp)
        #expect(background.limitMB == 1200)
    }

    @Test func coreAnalyticsLookAlikeIsRefused() throws {
        let bytes = try CorpusSupport.bytes("coreanalytics-211_ios16.5_not-jetsam_per-process-limit-lookalike.ips")
        #expect(!JetsamParser.isJetsamEvent(IPSContainer(bytes: bytes)))
        #expect { try JetsamParser().parse(bytes) } throws: { ($0 as? JetsamParseError)?.code == .notJetsam }
    }

    @Test func truncatedReportKeepsCompleteProcesses() throws {
        let result = try JetsamParser().parse(CorpusSupport.bytes("ios15.5_iPhone13-1_truncated-mid-string.ips"))
        #expect(result.event.isPartial)
        #expect(result.event.processes.count >= 88)
        #expect(result.event.processes.contains { $0.limitMB == 2098 })
        #expect(result.diagnostics.contains { $0.code == .jsonTruncated })
    }

    @Test func blogExcerptIsReadWithRepairs() throws {
        let result = try JetsamParser().parse(
            CorpusSupport.bytes("blog-excerpt_ios15.2_iPhone13-2_comments-elision-trailing-commas.ips")
        )
        #expect(result.event.isPartial)
        #expect(result.event.processes.count == 3)
        #expect(result.event.processes.first { $0.role == .foregroundApp }?.limitMB == 2098)
        #expect(result.diagnostics.contains { $0.code == .jsonElision && $0.location?.line != nil })
    }

    @Test func headerlessBodyAndNoIncidentId() throws {
        let headerless = try JetsamParser().parse(
            CorpusSupport.bytes("ios12.1.4_iPhone11-8_headerless-body_per-process-limit.ips")
        )
        #expect(headerless.event.header == nil)
        #expect(headerless.event.processes.contains { $0.limitMB == 1792 })
        let old = try JetsamParser().parse(
            CorpusSupport.bytes("ios9.3_iPhone7-2_pagesize4096_no-incident-id_vm-thrashing_per-process-limit.ips")
        )
        #expect(old.event.header?.incidentID == nil)
        #expect(old.event.processes.contains { $0.reason == "vm-thrashing" && $0.role == .daemon })
        #expect(old.event.processes.contains { $0.limitMB == 645 && $0.role == .foregroundApp })
    }
}
