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

    @Test func metadataFilesAreBundleMetadataNotUnknown() throws {
        for name in ["/Info.plist", "/PointInfo.json", "/Filters/Filter_3.2.0_AllOS_AllDevices/Info.plist"] {
            let inspection = ReportInspector().inspect(path: Self.bundle + name)
            #expect(inspection.kind == .xccrashpointInfo, "\(name)")
            #expect(inspection.failure == nil)
        }
        let filterInfo = ReportInspector().inspect(path: Self.filter + "/Info.plist")
        guard case .family(let model) = filterInfo.report, let info = model as? XcodeCrashpointInfo else {
            Issue.record("no model")
            return
        }
        #expect(info.bundle == "Fernway - FeedStore.save(_:).xccrashpoint")
        #expect(info.filter == "Filter_3.2.0_AllOS_AllDevices")
        #expect(info.format == "xmlPlist")
        #expect(
            Self.facts(info) == [
                "Filter.appVersion": "3.2.0", "Filter.build": "412", "Filter.osVersion": "All",
                "Filter.deviceFamily": "All", "LogCount": "1", "Downloaded": "true",
            ]
        )
        guard
            case .family(let model) = ReportInspector().inspect(path: Self.bundle + "/PointInfo.json").report,
            let point = model as? XcodeCrashpointInfo
        else {
            Issue.record("no model")
            return
        }
        #expect(point.format == "json")
        #expect(Self.facts(point)["crashCount"] == "214")
        #expect(Self.facts(point)["distribution.iPhone14,2"] == "71")
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

    @Test func hostileMetadataStaysBoundedAndIsNeverAFailure() throws {
        let path = "/evidence/P.xccrashpoint/Info.plist"
        // 500 keys, a huge value, an unclosed tag, control characters, deep nesting: at most 64 facts of 512
        // characters, the rest counted.
        var plist = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>"
        for k in 0..<500 { plist += "<key>k\(k)</key><string>v\u{1B}[31m\(k)</string>" }
        plist += "<key>big</key><string>" + String(repeating: "x", count: 5_000) + "</string>"
        plist += String(repeating: "<dict>", count: 2_000) + "<key>lost"
        let inspection = ReportInspector().inspect(bytes: Array(plist.utf8), path: path)
        #expect(inspection.kind == .xccrashpointInfo)
        guard case .family(let model) = inspection.report, let info = model as? XcodeCrashpointInfo else {
            Issue.record("no model")
            return
        }
        #expect(info.facts.count == 64)
        #expect(info.factsLeftOut == 437)
        #expect(info.facts.allSatisfy { $0.value.count <= 513 })
        #expect(inspection.diagnostics.map(\.code.rawValue) == ["xccrashpoint.facts-left-out"])
        // A binary property list is named, not read.
        let binary = ReportInspector().inspect(bytes: Array("bplist00\u{0}\u{1}".utf8), path: path)
        #expect(binary.kind == .xccrashpointInfo)
        #expect(binary.diagnostics.map(\.code.rawValue) == ["xccrashpoint.binary-plist"])
        // A JSON file that is not an object, and text that is neither, inside a bundle.
        let array = ReportInspector().inspect(bytes: Array("[1,2]".utf8), path: "/e/P.xccrashpoint/PointInfo.json")
        #expect(array.kind == .xccrashpointInfo)
        let text = ReportInspector().inspect(bytes: Array("hello".utf8), path: "/e/P.xccrashpoint/Info.plist")
        #expect(text.kind == .unknown)
    }
}
