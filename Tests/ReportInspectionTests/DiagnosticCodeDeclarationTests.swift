import APMInspectCore
import CrashReportParsing
import JetsamParsing
import MetricKitParsing
import ReportInspection
import Testing

/// The codes the crash, Jetsam, MetricKit and inspection modules declare: callers and the documentation rely on
/// each being well formed and naming one kind of finding, so a code declared twice or misspelled is caught here.
@Suite struct DiagnosticCodeDeclarationTests {
    static let crashReportCodes: [Diagnostic.Code] = [
        .crashFieldWrongType, .crashRepeatedKey, .crashEscapedKey, .crashFaultingThreadOutOfRange,
        .crashCrashedThreadNotListed, .crashHeaderWithoutBody, .crashHeaderOnly, .crashFragment, .crashCutShort,
        .crashLineTooLong, .crashBacktraceLineNotFrame, .crashUnknownDateFormat, .crashUnparsedLines,
        .crashThreadFramesTruncated, .crashFramesTruncated, .crashThreadListTruncated, .crashImageListTruncated,
        .crashStringTruncated, .crashUnknownKeysTruncated, .kscrashLenientJSON, .kscrashSeveralValues,
        .kscrashWrongType, .kscrashRecrashOnly, .kscrashRecrash, .kscrashRecrashText, .kscrashIncomplete,
        .kscrashUnknownTimestamp,
        .kscrashImageWithoutAddress, .kscrashHangBlockMissing, .kscrashHangTimeMissing, .kscrashHangEndsBeforeStart,
        .kscrashProfileBlockMissing, .kscrashUnknownTimeUnits, .kscrashSampleFrameOutOfRange,
        .kscrashSampleWithoutFrames, .kscrashSamplesTruncated, .kscrashUnknownTerminationReason, .kscrashFramesLeftOut,
        .watchdogNoTermination, .watchdogNoProcessTable, .watchdogUnknownPID, .watchdogProcessNotInStackshot,
        .watchdogWrongType, .watchdogImageListTruncated, .watchdogProcessListTruncated, .watchdogThreadListTruncated,
        .watchdogFrameListTruncated, .watchdogUnreadableFrame, .watchdogFrameImageOutOfRange, .resourceUnreadableFrame,
        .resourceFrameListTruncated, .resourceFieldListTruncated, .resourceNoLimit,
    ]

    static let jetsamCodes: [Diagnostic.Code] = [
        .jetsamHeaderWithoutBody, .jetsamExcerpt, .jetsamNoContent, .jetsamWrappedStringJoined, .jetsamMistypedValue,
        .jetsamCutOffValue, .jetsamUnknownValuesLimit, .jetsamFlattenedProcess, .jetsamProcessNotObject,
        .jetsamCutOffProcess, .jetsamProcessListTruncated, .jetsamZeroPageSize, .jetsamNoPageSize,
        .jetsamFootprintOverflow, .jetsamUnknownKillReason,
    ]

    static let metricKitCodes: [Diagnostic.Code] = [
        .metricKitWrongType, .metricKitTreeWithoutStacks, .metricKitCrashStackBranches, .metricKitLoadAddressAsOffset,
        .metricKitFramesTruncated, .metricKitMetricsTruncated, .metricKitTruncatedJSON, .metricKitFindingsNotListed,
        .metricKitCodableVariant, .metricKitUnknownResult, .metricKitNoResult,
    ]

    static let reportInspectionCodes: [Diagnostic.Code] = [
        .reportUTF16Transcoded
    ]

    static let all = crashReportCodes + jetsamCodes + metricKitCodes + reportInspectionCodes

    @Test func everyCodeIsWellFormed() {
        for code in Self.all {
            #expect(code.isWellFormed, "\(code)")
        }
    }

    @Test func everyCodeIsUnique() {
        var seen: Set<Diagnostic.Code> = []
        for code in Self.all {
            #expect(seen.insert(code).inserted, "\(code) is declared twice")
        }
    }

    /// The first word names the area, so a code read on its own says which reader found it.
    @Test func everyCodeStartsWithItsArea() {
        let areas: [([Diagnostic.Code], Set<String>)] = [
            (Self.crashReportCodes, ["crash", "kscrash", "watchdog", "resource"]),
            (Self.jetsamCodes, ["jetsam"]),
            (Self.metricKitCodes, ["metrickit"]),
            (Self.reportInspectionCodes, ["report"]),
        ]
        for (codes, allowed) in areas {
            for code in codes {
                let area = String(code.rawValue.prefix { $0 != "." })
                #expect(allowed.contains(area), "\(code)")
            }
        }
    }
}
