/// What a report records, for counting reports apart: not every report a crash reporter writes is a crash.
///
/// One category per report. The crash report model carries it when the reader knows it (KSCrash's hang,
/// profile and termination kinds); the fleet report and the backend writers count and map by it.
public enum ReportCategory: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// The process crashed (a signal, a Mach exception, an uncaught exception).
    case crash
    /// The main thread stopped answering for a while; the process may have recovered.
    case hang
    /// The OS killed the process for taking too long or for a system condition (0x8badf00d, thermal …).
    case watchdogTermination
    /// The OS killed the process for its memory use (jetsam).
    case outOfMemory
    /// The OS killed the process for its use of a resource other than memory (CPU, disk writes).
    case resourceKill
    /// A sampling profile: no failure at all.
    case profile
    /// The process went over a resource budget and was left running (Apple's bug_type 145 disk writes, 202 CPU).
    case resourceWarning
    /// A userspace watchdog took the device or a system service down (Apple's bug_type 409): the system's event,
    /// not the app's watchdog termination.
    case systemWatchdog
}
