import APMInspectCore
import CrashReportParsing
import FleetReport
import ReportInspection
import Testing

@testable import ReportRendering

/// The registry must claim every model a standard family produces, or a view would silently fall back to JSON;
/// each contribution a family makes is checked on a real file.
@Suite struct FamilyRegistryTests {
    @Test(arguments: ["crash", "jetsam", "kscrash", "metrickit", "system", "watchdog", "http", "appstoreconnect"])
    func everyCorpusModelHasItsViews(folder: String) throws {
        let files = try CorpusInput.files(in: "Corpus/" + folder)
        #expect(!files.isEmpty)
        for file in files {
            let inspection = try CorpusInput.inspection(file)
            let report = try #require(inspection.report, "\(file) was not read")
            #expect(FamilyRegistry.views(of: report) != nil, "\(file): no views claim \(inspection.kind)")
        }
    }

    /// Xcode crash point metadata is on the generic path: its views come with its model, from no list.
    @Test func aGenericFamilysModelBringsItsViews() throws {
        let bundle = "Corpus/xccrashpoint/Fernway - FeedStore.save(_:).xccrashpoint"
        for file in [bundle + "/Info.plist", bundle + "/PointInfo.json"] {
            let inspection = try CorpusInput.inspection(file)
            let report = try #require(inspection.report, "\(file) was not read")
            guard case .family(let model) = report, model is XcodeCrashpointInfo else {
                Issue.record("\(file): not on the generic path: \(report)")
                continue
            }
            let views = try #require(FamilyRegistry.views(of: report), "\(file): no views")
            #expect(views.noun == "an Xcode crash point's metadata file")
            let text = InspectionRenderer.render(inspection)
            #expect(text.hasPrefix("Xcode crash point metadata  \(file)\n"), "\(text)")
            #expect(text.contains("Bundle"))
        }
    }

    @Test func aProfileFoldsUnderItsName() throws {
        let inspection = try CorpusInput.inspection("Corpus/kscrash/v3.7.0_ios18.2_arm64_profile_startup_samples.json")
        let stacks = try #require(FamilyRegistry.foldedStacks(of: inspection))
        guard case .stacks(let text) = stacks.entries.first else {
            Issue.record("no stacks first: \(stacks.entries)")
            return
        }
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("profile@") && $0.last?.isNumber == true })
    }

    @Test func metricKitTreesFoldUnderTheirDiagnostic() throws {
        let file = "Corpus/metrickit/ios16.4.1_two_payloads_hangs_per_thread_tree.json"
        let inspection = try CorpusInput.inspection(file)
        let stacks = try #require(FamilyRegistry.foldedStacks(of: inspection))
        let text = stacks.entries.compactMap { entry -> String? in
            if case .stacks(let text) = entry { return text }
            return nil
        }
        .joined()
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("hang@") })
        #expect(!text.isEmpty)
    }

    @Test func aCrashWithoutSamplesHasNoFoldedStacks() throws {
        let file = try #require(try CorpusInput.files(in: "Corpus/crash").first)
        #expect(FamilyRegistry.foldedStacks(of: try CorpusInput.inspection(file)) == nil)
    }

    @Test func aJetsamEventGivesScanItsEvidence() throws {
        let file = try #require(try CorpusInput.files(in: "Corpus/jetsam").first)
        let inspection = try CorpusInput.inspection(file)
        guard case .jetsam(let event) = inspection.report else {
            Issue.record("\(file) is not a JetsamEvent")
            return
        }
        let record = ScanRecord(inspection)
        #expect(record.jetsamKills == event.killedProcesses.count)
        #expect(record.jetsam != nil)
        #expect(record.crash == nil)
    }
}
