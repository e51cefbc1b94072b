import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import WatchdogAnalysis

extension FleetEvent {
    /// One hang, from whichever source reported it, with the main thread's stack the hang groups and the flame
    /// graph are made of.
    package struct Hang: Sendable, Equatable {
        /// Where it was reported (``Source``'s raw value).
        package var source: String
        /// The group's frames, innermost first (`FleetEvent.groupFrames(innermostFirst:)`); `["?"]` without a
        /// stack.
        package var frames: [String]
        /// The main thread's stack root first, each frame as `inspect --format folded` names it (a folded-stack field), at most `maxHangStackFrames`.
        package var stack: [String]
        /// The watchdog classifier's verdict on the main thread (`waitingOnLock` …), `unknown` without a stack.
        package var verdict: String
        /// Why the verdict is `unknown` when no stack could be judged.
        package var verdictReason: String?
        package var context: Context

        package init(
            source: Source,
            frames: [String],
            stack: [String],
            verdict: String,
            verdictReason: String?,
            context: Context
        ) {
            self.source = source.rawValue
            self.frames = frames
            self.stack = stack
            self.verdict = verdict
            self.verdictReason = verdictReason
            self.context = context
        }
    }

    /// The kinds of hang report `hangs.bySource` counts.
    package enum Source: String, Sendable, CaseIterable {
        /// A MetricKit hang diagnostic: a legacy `MXHangDiagnostic` or an iOS 27 `DiagnosticReport` whose result is
        /// `hang`.
        case metricKit
        /// A KSCrash 2.6 `hang` report (the app came back from it, or the report says nothing more).
        case kscrash
        /// One of Apple's hang reports: an `.ips` whose bug_type the table marks as a hang (222, 223, 228, 310 …).
        case appleHangReport
        /// A 0x8badf00d watchdog termination (Apple's or KSCrash's): the hang the OS ended by killing the app.
        case watchdogKill
        /// A hang log of an App Store Connect `diagnosticLogs` response.
        case appStoreConnect
    }

    /// Frames kept of a hang's main-thread stack for the flame graph, from the root: a deeper stack is cut.
    package static let maxHangStackFrames = 128
    /// Characters kept of a frame's name in the flame graph's stacks: a hostile symbol can be megabytes long.
    package static let maxHangFrameCharacters = 512
    /// Hangs kept from one file (a MetricKit file or an App Store Connect response can hold millions).
    package static let maxHangsPerFile = 10_000

    /// True for a report of a bug_type the table marks as a hang (Apple's run-loop and third-party hangs).
    package static func isAppleHangReport(_ report: CrashReport) -> Bool {
        guard let code = report.header?.bugType else { return false }
        return BugType.lookup(code).family == .hang
    }

    /// The hang a crash-shaped report records: a KSCrash `hang`, one of Apple's hang reports, or (with its
    /// termination) a 0x8badf00d watchdog kill; nil for any other report.
    package static func hang(_ report: CrashReport, termination: WatchdogTermination? = nil) -> Hang? {
        let source: Source
        if let termination {
            guard termination.code?.value == 0x8bad_f00d else { return nil }
            source = .watchdogKill
        } else if isAppleHangReport(report) || report.sourceFormat == .spindump {
            source = .appleHangReport
        } else if report.category == .hang {
            source = .kscrash
        } else {
            return nil
        }
        let thread = MainThreadClassifier.mainThread(of: report)
        let verdict: (String, String?)
        if let diagnosis = termination?.diagnosis {
            // The watchdog report's own verdict: it weighed the CPU figures too.
            verdict = (diagnosis.verdict.rawValue, diagnosis.verdict == .unknown ? diagnosis.summary : nil)
        } else {
            verdict = Self.verdict(thread, missing: "the report has no main-thread backtrace")
        }
        return hang(
            source: source,
            thread: thread,
            process: report.process,
            verdict: verdict,
            context: context(of: report)
        )
    }

    /// The hang diagnostics of a MetricKit file (both shapes), each judged on its blamed thread.
    package static func hangs(_ report: MetricKitReport) -> [Hang] {
        var hangs: [Hang] = []
        for payload in report.payloads {
            for diagnostic in payload.diagnostics where diagnostic.kind == .hang {
                guard hangs.count < maxHangsPerFile else { return hangs }
                hangs.append(hang(diagnostic, source: .metricKit, date: payload.end ?? payload.begin))
            }
        }
        return hangs
    }

    /// The hang logs of an App Store Connect response.
    package static func hangs(_ report: AppStoreConnectReport) -> [Hang] {
        guard report.response == .diagnosticLogs else { return [] }
        return report.logs.lazy.filter { $0.diagnostic.kind == .hang }.prefix(maxHangsPerFile).map {
            hang($0.diagnostic, source: .appStoreConnect, date: nil)
        }
    }

    private static func hang(_ diagnostic: MetricKitDiagnostic, source: Source, date: AppleTimestamp?) -> Hang {
        let metadata = diagnostic.metadata
        let context = Context(
            bundleId: metadata.bundleIdentifier,
            appVersion: metadata.appVersion,
            appBuild: metadata.appBuildVersion,
            osVersion: metadata.osVersionNumber ?? metadata.osVersion,
            device: metadata.deviceType,
            date: date
        )
        let thread = diagnostic.blamedThread
        let verdict = Self.verdict(thread, missing: "the diagnostic has no call-stack tree")
        return hang(source: source, thread: thread, process: nil, verdict: verdict, context: context)
    }

    /// The classifier's verdict on `thread`, or `unknown` with `missing` as the reason when there is no stack.
    private static func verdict(_ thread: CrashReport.Thread?, missing: String) -> (String, String?) {
        guard let thread, !thread.frames.isEmpty else { return ("unknown", missing) }
        let diagnosis = MainThreadClassifier.classify(thread)
        return (diagnosis.verdict.rawValue, diagnosis.verdict == .unknown ? diagnosis.summary : nil)
    }

    private static func hang(
        source: Source,
        thread: CrashReport.Thread?,
        process: String?,
        verdict: (String, String?),
        context: Context
    ) -> Hang {
        let frames = thread?.frames ?? []
        let named = frames.map { NamedFrame($0, process: process) }
        // Named as `inspect --format folded` names a frame, so the two graphs can be read side by side.
        let stack = frames.reversed().prefix(maxHangStackFrames).map {
            String(CrashReport.Profile.foldedLabel($0).prefix(maxHangFrameCharacters))
        }
        return Hang(
            source: source,
            frames: groupFrames(innermostFirst: named),
            stack: Array(stack),
            verdict: verdict.0,
            verdictReason: verdict.1,
            context: context
        )
    }
}
