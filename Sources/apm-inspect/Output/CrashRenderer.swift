import APMInspectCore
import CrashReportParsing

/// The human summary of a crash report: who crashed, how, and where in the app's code.
enum CrashRenderer {
    static func render(_ report: CrashReport, file: String) -> String {
        var title = "Crash report"
        // An OS fault, a system watchdog crash, a stackshot or a hang read as a crash report says which it is.
        if let code = report.header?.bugType, BugType.lookup(code).family != .crash {
            title += " (bug_type \(code) \(BugType.lookup(code).name))"
        }
        if report.isNotACrash { title += " (not a crash: simulated or non-fatal)" }
        if report.isPartial { title += " (partial)" }
        var out = "\(title)  \(file)\n"
        var fields: [(String, String)] = []
        var app = report.process ?? "?"
        if let pid = report.pid { app += " [\(pid)]" }
        if let bundle = report.bundleId, bundle != report.process { app += "  \(bundle)" }
        fields.append(("App", app))
        if let written = report.appVersion {
            // Apple prints an empty version as `???`.
            let version = written.isEmpty ? "???" : written
            fields.append(("Version", report.appBuild.map { "\(version) (\($0))" } ?? version))
        }
        if let model = report.hardwareModel {
            fields.append(("Device", report.deviceName.map { "\($0) (\(model))" } ?? model))
        }
        if let os = report.osVersion { fields.append(("OS", os + (report.releaseType.map { "  \($0)" } ?? ""))) }
        if let date = report.date { fields.append(("Time", date.iso8601)) }
        if let incident = report.incidentID { fields.append(("Incident", incident)) }
        if let exception = report.exception {
            var line = exception.typeAndSignal ?? ""
            if let subtype = exception.subtype { line += "  \(subtype)" }
            fields.append(("Exception", line))
            if let meaning = exception.meaning { fields.append(("", meaning)) }
            if let address = exception.faultAddress { fields.append(("", "fault address \(address)")) }
            if exception.possiblePointerAuthenticationFailure == true {
                fields.append(("", "possible pointer authentication failure (a corrupted or forged pointer)"))
            }
            // macOS writes the codes twice (symbolic, then raw hex): every line is shown.
            for (k, codes) in (exception.codes?.split(separator: "\n") ?? []).enumerated() {
                fields.append((k == 0 ? "Codes" : "", String(codes)))
            }
            // EXC_RESOURCE's point: `(Limit 50%) Observed 60% over 180 secs`.
            if let message = exception.message { fields.append(("Message", message)) }
        }
        if let termination = report.termination {
            var line = termination.namespace ?? "?"
            if let code = termination.code {
                // Signal numbers read better in decimal; OS codes are known by their hex spelling.
                line += termination.namespace == "SIGNAL" ? " \(code.value)" : " \(code)"
            }
            if let indicator = termination.indicator { line += "  \(indicator)" }
            fields.append(("Termination", line))
            for reason in termination.reasons.prefix(6) { fields.append(("", reason)) }
            if termination.reasons.count > 6 { fields.append(("", "… \(termination.reasons.count - 6) more lines")) }
        }
        if let info = report.applicationSpecificInformation
            ?? report.blocks.first(where: {
                $0.title == "Application Specific Information"
            })?.lines, !info.isEmpty
        {
            fields.append(("App info", info[0].trimmingASCIIWhitespace()))
            for line in info.dropFirst().prefix(3) { fields.append(("", line.trimmingASCIIWhitespace())) }
        }
        if let signature = report.signature { fields.append(("Signature", signature)) }
        out += InspectionRenderer.keyValues(fields)
        if let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
            out += "\nLast exception backtrace (app frames marked ▶)\n"
            out += frames(backtrace, limit: 12)
        }
        if let index = report.crashedThread, let thread = report.threads.first(where: { $0.index == index }) {
            var heading = "\nThread \(thread.index) \(thread.attributed ? "attributed" : "crashed")"
            if let name = thread.name { heading += "  \(name)" }
            if let queue = thread.queue { heading += "  queue \(queue)" }
            out += heading + " (app frames marked ▶)\n"
            out += frames(thread.frames, limit: 12)
        }
        out += "\n  \(report.threads.count) threads, \(report.binaryImages.count) binary images"
        out += report.unknownKeys == nil ? "\n" : "; unmodelled fields kept verbatim (see --format json)\n"
        return out
    }

    private static func frames(_ frames: [CrashReport.Frame], limit: Int) -> String {
        var table = TextTable(
            headers: ["", "#", "IMAGE", "ADDRESS", "WHERE"],
            alignments: [.left, .right, .left, .right, .left]
        )
        for frame in frames.prefix(limit) {
            var location = frame.symbol.map { symbol in frame.symbolOffset.map { "\(symbol) + \($0)" } ?? symbol }
            if location == nil, let offset = frame.imageOffset { location = "+ \(offset)" }
            if let file = frame.file { location = (location ?? "") + " (\(file)\(frame.line.map { ":\($0)" } ?? ""))" }
            if frame.inlined == true { location = (location ?? "") + " [inlined]" }
            table.append([
                frame.isAppFrame == true ? "▶" : "", String(frame.index), frame.image ?? "???",
                frame.address?.description ?? "", location ?? "",
            ])
        }
        var out = table.render(indent: "  ")
        if frames.count > limit { out += "  … \(frames.count - limit) more frames\n" }
        return out
    }
}
