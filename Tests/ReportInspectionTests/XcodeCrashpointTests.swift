import APMInspectCore
import Foundation
import FuzzReplaySupport
import ReportInspection
import Testing

/// Xcode Organizer `.xccrashpoint` bundles: the crafted bundle of Corpus/xccrashpoint and hostile metadata files.
@Suite struct XcodeCrashpointTests {
    static let bundle = FuzzReplayInputs.root.appendingPathComponent(
        "Corpus/xccrashpoint/Fernway - FeedStore.save(_:).xccrashpoint"
    ).path
    static let filter = bundle + "/Filters/Filter_3.2.0_AllOS_AllDevices"
    static let log = filter + "/Logs/Fernway-2024-05-02-081512.crash"

    static func facts(_ info: XcodeCrashpointInfo) -> [String: String] {
        Dictionary(info.facts.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theCrashLogIsACrashReportWithTheBundleFacts() throws {
        let inspection = ReportInspector().inspect(path: Self.log)
        #expect(inspection.kind == .crashReport)
        let facts = try #require(XcodeCrashpointFacts.of(logAt: Self.log))
        #expect(facts.bundle == "Fernway - FeedStore.save(_:).xccrashpoint")
        #expect(facts.filter == "Filter_3.2.0_AllOS_AllDevices")
        #expect(facts.facts.count == 17)
        let byKey = Dictionary(facts.facts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byKey["BundleIdentifier"]?.value == "com.example.fernway")
        // XML entities decoded; arrays (`Filters`) not read.
        #expect(byKey["Signature"]?.value == "FernwayKit: FeedStore.save(_:) & sync")
        #expect(byKey["Filters"] == nil)
        #expect(byKey["Filter.appVersion"]?.file == "Filters/Filter_3.2.0_AllOS_AllDevices/Info.plist")
        // A metadata file is no log; a path outside a bundle has no place.
        #expect(XcodeCrashpointFacts.of(logAt: Self.bundle + "/Info.plist") == nil)
        #expect(XcodeCrashpointFacts.of(logAt: "/tmp/Logs/a.crash") == nil)
    }

    @Test func theLayoutsOfEarlierXcodeVersionsArePlaced() throws {
        let old = try #require(XcodeCrashpointPlace(path: "a/B.xccrashpoint/DistributionInfos/all/Logs/x.crash"))
        #expect(old.filter == "all" && old.isLog && old.bundlePath == "a/B.xccrashpoint")
        let flat = try #require(XcodeCrashpointPlace(path: "/x/B.xccrashpoint/Logs/x.crash"))
        #expect(flat.filter == nil && flat.isLog)
        let nested = try #require(XcodeCrashpointPlace(path: "A.xccrashpoint/B.xccrashpoint/Info.plist"))
        #expect(nested.bundle == "B.xccrashpoint" && !nested.isLog)
        #expect(XcodeCrashpointPlace(path: "notes.xccrashpoint") == nil)
    }
}
