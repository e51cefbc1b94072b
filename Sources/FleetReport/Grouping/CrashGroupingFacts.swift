import CrashReportParsing

/// What grouping rules read of one crash: its frames, its exception's names and message lines.
///
/// Made only when a rules file is given, so the default grouping costs nothing more.
struct CrashGroupingFacts {
    struct Frame {
        var function: String?
        var module: String?
        var package: String?
        var path: String?
        var isApp: Bool
    }

    /// Frames a report contributes at most: a stack deeper than this is a runaway recursion, and rules look at the
    /// frames near the crash.
    static let maxFrames = 512

    /// The last exception backtrace's frames, then the crashed (or attributed) thread's.
    var frames: [Frame] = []
    /// The frame variables name: the top app frame of the frames the signature is made from, else their top frame.
    var crashFrame: Frame?
    /// The exception's Mach type and its signal (`EXC_BAD_ACCESS`, `SIGSEGV`): `error.type` matches either.
    var exceptionNames: [String] = []
    /// The exception's message, the application-specific information lines and the termination reasons.
    var values: [String] = []
    var signature: String

    init(report: CrashReport, signature: String) {
        self.signature = signature
        var paths: [String: String] = [:]
        for image in report.binaryImages {
            if let name = image.name, let path = image.path, paths[name] == nil { paths[name] = path }
        }
        func frame(_ frame: CrashReport.Frame) -> Frame {
            Frame(
                function: frame.symbol,
                module: frame.image,
                package: frame.image.flatMap { paths[$0] } ?? frame.image,
                path: frame.file,
                isApp: frame.isAppFrame == true
            )
        }
        let thread =
            report.threads.first { $0.crashed && (report.crashedThread == nil || $0.index == report.crashedThread) }
            ?? report.threads.first(where: \.attributed)
        let backtrace = report.lastExceptionBacktrace ?? []
        let signed = backtrace.isEmpty ? (thread?.frames ?? []) : backtrace
        crashFrame = (signed.first { $0.isAppFrame == true } ?? signed.first).map(frame)
        for source in [backtrace, thread?.frames ?? []] {
            for item in source.prefix(Self.maxFrames - frames.count) { frames.append(frame(item)) }
        }
        let exception = report.exception
        exceptionNames = [exception?.type, exception?.signal].compactMap { $0 }.filter { !$0.isEmpty }
        values =
            ([exception?.message] + (report.applicationSpecificInformation ?? []).map(Optional.some)
            + (report.termination?.reasons ?? []).map(Optional.some) + [report.terminationReason])
            .compactMap { $0 }.filter { !$0.isEmpty }
    }
}
