import APMInspectCore
import FuzzReplaySupport
import ReportInspection
import ReportSources
import Testing

/// A folder walk over an `.xccrashpoint` bundle, as `scan`, `report` and `inspect` read it: the crash log is a crash
/// report carrying the bundle's facts, the metadata files are bundle metadata, nothing is unknown.
@Suite struct XcodeCrashpointScanTests {
    @Test func aWalkedBundleHasNoUnknownFileAndItsLogCarriesTheFacts() throws {
        let folder = FuzzReplayInputs.root.appendingPathComponent("Corpus/xccrashpoint").path
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let reader = InputReader(inspector: ReportInspector(), temporary: temporary)
        let (files, failures) = PathWalker.rawFiles(in: [folder]) { _ in }
        #expect(failures.isEmpty)
        var inspections: [Inspection] = []
        for file in files where !file.display.hasSuffix("README.md") {
            _ = reader.read(file) { inspections.append($0) }
        }
        #expect(
            inspections.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [
                .crashReport, .xccrashpointInfo, .xccrashpointInfo, .xccrashpointInfo,
            ]
        )
        let crash = try #require(inspections.first { $0.kind == .crashReport })
        #expect(crash.crashpoint?.filter == "Filter_3.2.0_AllOS_AllDevices")
        #expect(crash.crashpoint?.facts.contains { $0.key == "Filter.appVersion" && $0.value == "3.2.0" } == true)
        #expect(inspections.filter { $0.kind != .crashReport }.allSatisfy { $0.crashpoint == nil })
    }
}
