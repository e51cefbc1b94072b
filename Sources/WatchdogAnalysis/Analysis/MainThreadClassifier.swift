import APMInspectCore
import CrashReportParsing

/// The watchdog analysis' reading of a main thread, for stacks that come without a watchdog report: a MetricKit
/// hang's main-thread call tree asks the same question ("what was the main thread doing?") of the same kind of
/// frames, and should get the same answer from the same tables.
package enum MainThreadClassifier {
    /// What `thread` (the main thread, its executing frame first) was doing: waiting on a lock, I/O, the network,
    /// another process, or busy in the app's code.
    ///
    /// Unsymbolicated frames are also read by their binary (a frame in `SQLite` is database I/O), as payloads
    /// without symbols need. `cpu`, when known, confirms a wait (little CPU) or a busy thread (much).
    package static func classify(
        _ thread: CrashReport.Thread,
        cpu: WatchdogTermination.CPUStatistics? = nil
    ) -> WatchdogTermination.Diagnosis {
        MainThreadDiagnosis.diagnose(thread: thread, cpu: cpu, byImage: true)
    }

    /// The main thread of a report as the watchdog analysis picks it: the thread on `com.apple.main-thread`, else
    /// thread 0.
    package static func mainThread(of report: CrashReport) -> CrashReport.Thread? {
        MainThreadDiagnosis.mainThread(report)
    }
}
