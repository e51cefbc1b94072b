import APMInspectCore
import CrashReportParsing

/// The human summaries of the system reports that are not crashes.
///
/// A system watchdog (409) and a resource report (145, 202, 206). Every value from the file is escaped
/// (``InspectionRenderer/keyValues(_:)`` and ``TerminalText``).
package enum SystemReportRenderer {
    /// Frames shown per thread of the watched process, and threads of other processes left out: `--format json`
    /// has them all.
    package static let framesShown = 12

    package static func render(_ report: SystemWatchdogReport, file: String) -> String {
        var out = "System watchdog  \(file)\n"
        var fields: [(String, String)] = []
        if let code = report.bugType { fields.append(("bug_type", "\(code) (\(report.bugTypeName ?? "?"))")) }
        fields.append(("Verdict", "a system event: a userspace watchdog gave up on a service; not an app crash"))
        var process = report.process ?? "?"
        if let pid = report.pid { process += pid < 0 ? " (pid \(pid): not named)" : " [\(pid)]" }
        fields.append(("Process", process))
        if let termination = report.termination {
            var reason = [termination.namespace, termination.code.map { "code \($0)" }].compactMap { $0 }
                .joined(separator: " ")
            if let indicator = termination.indicator { reason += reason.isEmpty ? indicator : ": \(indicator)" }
            fields.append(("Termination", reason.isEmpty ? "?" : reason))
            for detail in termination.details.prefix(8) { fields.append(("Detail", detail)) }
        }
        if let build = report.build ?? report.header?.osVersion { fields.append(("OS", build)) }
        if let model = report.modelCode { fields.append(("Model", model)) }
        if let state = report.displayState { fields.append(("Display", state)) }
        if let time = report.header?.timestamp { fields.append(("Time", time.iso8601)) }
        if let incident = report.header?.incidentID { fields.append(("Incident", incident)) }
        fields.append(
            (
                "Stackshot",
                "\(report.processes.count) processes, \(report.threadCount) threads, \(report.frameCount) frames, "
                    + "\(report.images.count) images"
            )
        )
        out += InspectionRenderer.keyValues(fields)
        if let watched = report.watchedProcess {
            out += "\nThreads of \(TerminalText.escaped(watched.name ?? "the watched process"))\n"
            for thread in watched.threads {
                var title = "Thread \(thread.id.map(String.init) ?? "?")"
                if let name = thread.name { title += " \(name)" }
                if !thread.state.isEmpty { title += "  [\(thread.state.joined(separator: ","))]" }
                out += "  \(TerminalText.escaped(title))\n"
                out += frames(thread.frames)
            }
        }
        if !report.reportNotes.isEmpty {
            out += "\nReport notes\n"
            for note in report.reportNotes.prefix(8) { out += "  \(TerminalText.escaped(note))\n" }
        }
        return out
    }

    package static func render(_ report: ResourceReport, file: String) -> String {
        var out = "Resource report  \(file)\n"
        var fields: [(String, String)] = []
        if let code = report.bugType { fields.append(("bug_type", "\(code) (\(report.bugTypeName ?? "?"))")) }
        let verdict =
            report.isFatal
            ? "a resource kill: the OS killed the process for going over its budget; not a crash"
            : "a resource warning: the process went over its budget and was left running"
        fields.append(("Verdict", verdict))
        fields.append(("Resource", resourceName(report.resource)))
        if let event = report.event { fields.append(("Event", event)) }
        if let action = report.actionTaken { fields.append(("Action taken", action)) }
        var process = report.process ?? "?"
        if let pid = report.pid { process += " [\(pid)]" }
        fields.append(("Process", process))
        if let path = report.path { fields.append(("Path", path)) }
        if let limit = report.limit {
            var text = limit.text
            if let window = report.limitDurationSeconds { text += " per \(Formatting.oneDecimal(window)) s" }
            fields.append(("Limit", text))
        }
        if let observed = report.observed {
            var text = observed.text
            if let over = report.observedDurationSeconds { text += " over \(Formatting.oneDecimal(over)) s" }
            fields.append(("Observed", text))
        }
        if let summary = report.summary { fields.append(("Summary", summary)) }
        if let duration = report.durationSeconds {
            var text = "\(Formatting.oneDecimal(duration)) s"
            if let sampled = report.durationSampledSeconds { text += ", \(Formatting.oneDecimal(sampled)) s sampled" }
            if let steps = report.steps { text += ", \(steps) steps" }
            fields.append(("Duration", text))
        }
        if let os = report.osVersion { fields.append(("OS", os)) }
        if let model = report.hardwareModel { fields.append(("Model", model)) }
        if let time = report.header?.timestamp { fields.append(("Time", time.iso8601)) }
        if let incident = report.header?.incidentID { fields.append(("Incident", incident)) }
        out += InspectionRenderer.keyValues(fields)
        if !report.heaviestStack.isEmpty {
            out += "\nHeaviest stack (outermost first, samples)\n"
            for frame in report.heaviestStack.prefix(64) {
                var line = "\(frame.sampleCount.map(String.init) ?? "?")".padding(toLength: 6) + frame.imageAndOffset
                if let symbol = frame.symbol, symbol != "???" { line += "  \(symbol)" }
                out += "  \(TerminalText.escaped(line))\n"
            }
            if report.heaviestStack.count > 64 { out += "  … \(report.heaviestStack.count - 64) more frames\n" }
        }
        return out
    }

    package static func resourceName(_ resource: ResourceReport.Resource) -> String {
        switch resource {
        case .diskWrites: "disk writes"
        case .cpu: "CPU"
        case .wakeups: "wakeups"
        case .other: "other"
        }
    }

    private static func frames(_ frames: [SampledFrame]) -> String {
        var out = ""
        for (index, frame) in frames.prefix(framesShown).enumerated() {
            var line = "\(index)".padding(toLength: 4) + frame.imageAndOffset
            if let address = frame.address { line += "  \(address)" }
            out += "    \(TerminalText.escaped(line))\n"
        }
        if frames.count > framesShown { out += "    … \(frames.count - framesShown) more frames\n" }
        return out
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
