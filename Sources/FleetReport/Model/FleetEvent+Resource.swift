import APMInspectCore
import CrashReportParsing

extension FleetEvent {
    /// A process over a resource budget (CPU, wakeups, memory, disk writes): an Apple resource report or an
    /// EXC_RESOURCE crash report, grouped in the report by its heaviest stack.
    package struct Resource: Sendable, Equatable {
        /// `cpu`, `wakeups`, `memory`, `diskWrites`, `threads`, `ports` or `other`.
        package var kind: String
        /// True when the OS killed the process for it (206, a fatal EXC_RESOURCE).
        package var fatal: Bool
        /// The frames the report groups on, innermost first, at most five (as many as a crash signature looks at).
        package var frames: [String]
        /// The kind of file it came from: `resourceReport`, `crashReport`, `kscrash`.
        package var source: String
        /// The bug_type, when the report has one (`206`).
        package var bugType: String?
        package var context: Context

        package init(
            kind: String,
            fatal: Bool,
            frames: [String],
            source: String,
            bugType: String?,
            context: Context
        ) {
            self.kind = kind
            self.fatal = fatal
            self.frames = Array(frames.prefix(FleetEvent.maxResourceFrames))
            self.source = source
            self.bugType = bugType
            self.context = context
        }
    }

    /// Frames a resource group is named by: as many as a crash signature looks at.
    package static let maxResourceFrames = 5

    /// The resource facts of a microstackshot resource report.
    package static func resource(_ report: ResourceReport, context: Context) -> Resource {
        resource(
            kind: report.resource.rawValue,
            fatal: report.isFatal,
            bugType: report.bugType,
            process: report.process ?? context.process,
            heaviestStack: report.heaviestStack,
            context: context
        )
    }

    /// The resource facts of a microstackshot resource report from its parts (the model's, or an envelope's):
    /// its heaviest stack from the innermost app frame (the innermost frames when none is the app's), each frame
    /// by its symbol when the report has one, else by image and offset.
    package static func resource(
        kind: String,
        fatal: Bool,
        bugType: String?,
        process: String?,
        heaviestStack: [SampledFrame],
        context: Context
    ) -> Resource {
        let frames = groupFrames(innermostFirst: heaviestStack.reversed().map { NamedFrame($0, process: process) })
        return Resource(
            kind: kind,
            fatal: fatal,
            frames: frames,
            source: FileKind.resourceReport.rawValue,
            bugType: bugType,
            context: context
        )
    }

    /// The resource facts of an EXC_RESOURCE crash report (nil for any other report): grouped on the frames of
    /// its signature (the attributed thread's app frames), its kind from the exception's subtype.
    package static func resource(_ report: CrashReport, source: String) -> Resource? {
        guard let exception = report.exception, exception.type?.uppercased() == "EXC_RESOURCE" else { return nil }
        let frames = report.signatureFrames ?? []
        return Resource(
            kind: resourceKind(exception),
            fatal: !report.isNotACrash,
            frames: frames.isEmpty ? [report.signature ?? "?"] : frames,
            source: source,
            bugType: report.header?.bugType,
            context: context(of: report)
        )
    }

    /// The resource an EXC_RESOURCE names in its subtype (`CPU`, `CPU_FATAL`, `WAKEUPS`, `MEMORY`, `IO` …), else
    /// in its codes (`RESOURCE_TYPE_MEMORY`): words, so a message's `ratio` is not `IO`.
    static func resourceKind(_ exception: CrashReport.Exception) -> String {
        for text in [exception.subtype, exception.codes] {
            guard let text else { continue }
            let words = Set(text.uppercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init))
            if words.contains("WAKEUPS") || words.contains("WAKEUP") { return "wakeups" }
            if words.contains("CPU") { return "cpu" }
            if words.contains("MEMORY") { return "memory" }
            if words.contains("IO") || words.contains("DISK") || words.contains("WRITES") { return "diskWrites" }
            if words.contains("THREADS") || words.contains("THREAD") { return "threads" }
            if words.contains("PORT") || words.contains("PORTS") { return "ports" }
        }
        return "other"
    }
}
