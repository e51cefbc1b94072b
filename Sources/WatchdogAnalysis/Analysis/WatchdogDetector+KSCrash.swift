import APMInspectCore
import CrashReportParsing

extension WatchdogDetector {
    /// The termination a KSCrash report records, when its `category` says an OS kill.
    ///
    /// The exit reason's code goes through the same table as Apple's reports, else what KSCrash's
    /// `termination_reason` names (thermal, CPU) decides. nil for a report of another category, and for one that holds neither a code nor a named reason.
    package static func analyze(kscrash report: CrashReport) -> WatchdogTermination? {
        guard report.category == .watchdogTermination || report.category == .resourceKill else { return nil }
        if let code = report.exitReasonCode {
            // The code as an Apple report's termination would carry it, for the same table and reading.
            var termination = report.termination ?? CrashReport.Termination()
            termination.code = code
            var asTerminated = report
            asTerminated.termination = termination
            if var found = analyze(asTerminated) {
                if found.elapsedSeconds == nil, let seconds = report.hang?.durationSeconds {
                    found.elapsedSeconds = seconds
                }
                return found
            }
        }
        var result: WatchdogTermination
        if let code = report.exitReasonCode {
            // A code the table does not name: an OS kill all the same, kept with its number.
            result = WatchdogTermination(kind: .other, code: code)
            result.meaning = "the OS terminated the process with a code this build does not name"
        } else {
            let reason = (report.terminationReason ?? "").lowercased()
            if reason.contains("thermal") {
                let known = TerminationCode.lookup(0xc000_10ff)
                result = WatchdogTermination(kind: .thermal, meaning: known?.meaning)
            } else if report.category == .resourceKill {
                result = WatchdogTermination(kind: .resourcePressure)
                result.meaning = "killed for its use of a system resource (\(reason.isEmpty ? "?" : reason))"
            } else if !reason.isEmpty {
                result = WatchdogTermination(kind: .watchdogTimeout)
                result.meaning = "watchdog: the process took longer than the system allows for an event"
            } else {
                return nil
            }
            result.raw = report.terminationReason
        }
        result.elapsedSeconds = report.hang?.durationSeconds
        result.bundleId = report.bundleId
        result.pid = report.pid
        result.diagnosis = MainThreadDiagnosis.diagnose(
            report,
            cpu: nil,
            kind: result.kind,
            watchdogWindow: result.elapsedSeconds
        )
        return result
    }
}
