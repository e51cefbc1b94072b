import APMInspectCore
import Foundation
import ReportInspection
import Testing

/// `.ips` files cut short: whichever family ends up reading them, the envelope says the copy is incomplete instead
/// of describing it as whole.
@Suite struct CutShortIPSTests {
    static let faultPath = ReportInspectorTests.corpus(
        "crash/ios17.4_308_json_os_fault_exc_guard_mach_port_non_fatal.ips"
    )
    static let watchdogPath = ReportInspectorTests.corpus(
        "watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"
    )

    private static func truncationWarnings(_ inspection: Inspection) -> [Diagnostic] {
        inspection.diagnostics.filter { $0.severity == .warning && $0.code == .jsonTruncated }
    }

    /// A body cut before its crash keys is summarised as another `.ips`: the summary carries the repair warning.
    @Test func aSummarisedBodyCutShortSaysSo() throws {
        let bytes = try FileReading.contents(atPath: Self.faultPath)
        let whole = ReportInspector().inspect(bytes: bytes, path: Self.faultPath)
        #expect(whole.kind == .crashReport)
        let headerEnd = try #require(bytes.firstIndex(of: 0x0A))
        var summarised = 0
        // Every cut inside the body's first 800 bytes.
        for cut in (headerEnd + 2)..<min(bytes.count, headerEnd + 800) {
            let inspection = ReportInspector().inspect(bytes: Array(bytes[..<cut]), path: Self.faultPath)
            guard inspection.kind == .otherIPS else {
                // Read as a crash report: partial, or refused with a reason.
                continue
            }
            summarised += 1
            let warnings = Self.truncationWarnings(inspection)
            #expect(warnings.count == 1, "cut at \(cut)")
            #expect(warnings.first?.location?.byteOffset != nil, "cut at \(cut)")
        }
        #expect(summarised > 100)
    }

    @Test func aWholeSummarisedBodyHasNoTruncationWarning() throws {
        // The fault's body made into one that is not crash-shaped, but whole: summarised, with no warning.
        var text = String(decoding: try FileReading.contents(atPath: Self.faultPath), as: UTF8.self)
        let newline = try #require(text.firstIndex(of: "\n"))
        text = String(text[...newline]) + "{\"note\" : \"not a crash body\", \"values\" : [1, 2, 3]}\n"
        let inspection = ReportInspector().inspect(bytes: Array(text.utf8), path: Self.faultPath)
        #expect(inspection.kind == .otherIPS)
        #expect(Self.truncationWarnings(inspection).isEmpty)
    }

    @Test func aCrashBodyCutBeforeItsKeysIsRefusedAsCutShort() throws {
        let bytes = try FileReading.contents(atPath: Self.watchdogPath)
        let headerEnd = try #require(bytes.firstIndex(of: 0x0A))
        let cut = Array(bytes[..<(headerEnd + 40)])
        let inspection = ReportInspector().inspect(bytes: cut, path: Self.watchdogPath)
        let failure = try #require(inspection.failure)
        // wording: the failure says how many bytes of the body there were before the cut.
        #expect(failure.message.contains("cut short after 39 bytes"))
    }
}
