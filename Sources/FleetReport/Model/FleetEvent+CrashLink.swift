import APMInspectCore
import CrashReportParsing

extension FleetEvent {
    /// What ties one crash seen by several reporters (a KSCrash report, a MetricKit diagnostic, Apple's `.ips`)
    /// together, and how rich each copy is: read from the report model, so files and NDJSON envelopes give the same.
    package struct CrashLink: Sendable, Equatable {
        /// A crashed-thread frame as every reporter can name it: its image's UUID and the offset into that image
        /// (a symbolicated and an unsymbolicated report of one crash agree on these, not on names).
        package struct Frame: Sendable, Equatable, Hashable {
            package var imageUUID: String
            package var offset: UInt64

            package init(imageUUID: String, offset: UInt64) {
                self.imageUUID = imageUUID
                self.offset = offset
            }
        }

        package var pid: Int64?
        /// Apple's incident identifier (`Incident Identifier`, `incident_id`): one crash delivered as an `.ips` and
        /// as its text translation has one, which is stronger evidence than any time window.
        package var incidentId: String?
        /// When the crash happened, in seconds since 1970: an instant (`start == end`), or the range a MetricKit
        /// payload covers; nil when the report has no date.
        package var start: Double?
        package var end: Double?
        /// The top `FleetEvent.maxLinkFrames` frames of the crashed thread; nil where a frame has no image UUID or
        /// offset (nothing to compare there).
        package var frames: [Frame?] = []
        /// Crashed-thread frames with a symbol: a symbolicated copy is the richer one.
        package var symbolicatedFrames = 0
        /// Frames over every thread, and threads.
        package var frameCount = 0
        package var threadCount = 0

        package init() {}
    }

    /// Crashed-thread frames compared when linking: enough to tell two crashes apart at one place.
    package static let maxLinkFrames = 3

    /// The link facts of a crash report (also a KSCrash report or a MetricKit diagnostic's model).
    static func link(of report: CrashReport) -> CrashLink {
        var link = CrashLink()
        link.pid = report.pid
        link.incidentId = report.incidentID.flatMap(normalizedIncident)
        if let date = report.date, date.secondsSince1970.isFinite {
            link.start = date.secondsSince1970
            link.end = date.secondsSince1970
        }
        let crashed =
            report.threads.first { $0.crashed && (report.crashedThread == nil || $0.index == report.crashedThread) }
            ?? report.threads.first { $0.crashed }
        let frames = crashed?.frames ?? []
        link.frames = frames.prefix(maxLinkFrames).map { frame in
            // Three look-ups by name: cheaper than a table of every image for the few frames compared.
            guard let name = frame.image, let offset = frame.imageOffset,
                let uuid = report.binaryImages.first(where: { $0.name == name })?.uuid.flatMap(binaryUUID)
            else { return nil }
            return CrashLink.Frame(imageUUID: uuid, offset: offset)
        }
        link.symbolicatedFrames = frames.reduce(0) { count, frame in
            guard let symbol = frame.symbol, !symbol.isEmpty, symbol != "???", !symbol.hasPrefix("0x") else {
                return count
            }
            return count + 1
        }
        link.threadCount = report.threads.count
        link.frameCount = report.threads.reduce(0) { adding($0, $1.frames.count) }
        return link
    }

    /// The incident id as one key whatever its case or padding; nil for an empty or all-zero one, or one too long to
    /// be an id.
    static func normalizedIncident(_ text: String) -> String? {
        var trimmed = Substring(text)
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        // An all-zero id is a placeholder some tools write, not an incident.
        guard trimmed.utf8.count <= 64, trimmed.contains(where: { $0 != "0" && $0 != "-" }) else { return nil }
        return String(trimmed).uppercased()
    }

    private static func adding(_ a: Int, _ b: Int) -> Int { FleetAggregator.adding(a, b) }
}
