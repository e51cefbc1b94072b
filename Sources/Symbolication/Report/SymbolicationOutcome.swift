import APMInspectCore
import CrashReportParsing

/// A report after symbolication, with what was found along the way and how the new frames map back to the
/// frames as written (an inline chain turns one written frame into several).
///
/// The report, its diagnostics and the count of resolved frames are the API; how each frame maps back to the written
/// ones is `package`, for this package's text rewriting (`symbolicate`) and renderers.
public struct SymbolicationOutcome: Sendable {
    /// The report with the symbols, files and lines found.
    public var report: CrashReport
    /// One per image whose debug information is missing or unreadable, and nothing else.
    public var diagnostics: [Diagnostic]
    /// Written frames that received a symbol (a chain of inlined frames counts once).
    public var resolvedFrames: Int
    /// For each thread (by position in `CrashReport.threads`), the position of the written frame each frame
    /// came from, in order.
    package var threadOrigins: [[Int]]
    /// The same for `CrashReport.lastExceptionBacktrace`.
    package var exceptionOrigins: [Int]
    /// For each thread, the written frames whose text changed (resolved or re-resolved).
    package var changedThreadFrames: [Set<Int>]
    /// The same as ``changedThreadFrames`` for `CrashReport.lastExceptionBacktrace`.
    package var changedExceptionFrames: Set<Int>
    /// The same as ``threadOrigins`` for the threads of the report's `CrashReport.recrashReport`.
    package var recrashThreadOrigins: [[Int]] = []
    /// The same as ``changedThreadFrames`` for the threads of the report's `CrashReport.recrashReport`.
    package var changedRecrashThreadFrames: [Set<Int>] = []

    /// True when anything was resolved, so a caller can skip rewriting an unchanged report.
    public var isChanged: Bool { resolvedFrames > 0 }
}
