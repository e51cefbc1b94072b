import APMInspectCore
import JetsamParsing
import PowerLogReading
import ReportInspection

/// The human summary of one inspected file.
package enum InspectionRenderer {
    /// Multi-line text goes out through the executable's `Console.text`, which escapes every control but the
    /// layout's line breaks; the file name and one-line fields are escaped here, so a newline in them cannot forge a
    /// line.
    package static func render(_ inspection: Inspection) -> String {
        styled(inspection, crashView: .standard).plain
    }

    /// The view with the crashed thread and error and warning lines marked for colour (``StyledText``);
    /// `crashView` says how much of a crash report is shown (crash reports, KSCrash, watchdog and MetricKit
    /// crashes; other kinds have no threads to show and ignore it).
    package static func styled(_ inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        var inspection = inspection
        inspection.file = TerminalText.escaped(inspection.file)
        var out = StyledText()
        switch inspection.report {
        case .jetsam(let event):
            out += JetsamRenderer.render(event, file: inspection.file)
        case .ips(let summary):
            out += "\(title(for: inspection.kind))  \(inspection.file)\n"
            var fields: [(String, String)] = []
            if let code = summary.bugType { fields.append(("bug_type", "\(code) (\(summary.bugTypeName ?? "?"))")) }
            if let header = summary.header {
                if let name = header.name { fields.append(("Process", name)) }
                if let os = header.osVersion { fields.append(("OS", os)) }
                if let time = header.timestamp { fields.append(("Time", time.iso8601)) }
                if let incident = header.incidentID { fields.append(("Incident", incident)) }
            }
            fields.append(("Body", "\(summary.bodyKind), \(Formatting.grouped(summary.bodyBytes)) bytes"))
            fields.append(("Note", summary.note))
            out += keyValues(fields)
        case .unrecognised(let summary):
            out += "Unknown  \(inspection.file)\n"
            out += keyValues([
                ("Format", summary.format.rawValue), ("Size", "\(Formatting.grouped(summary.bytes)) bytes"),
                ("Note", summary.note),
            ])
        case .http(let capture):
            out += HTTPRenderer.render(
                capture,
                file: inspection.file,
                title: title(for: inspection.kind),
                detailed: false
            )
        case .crash(let report):
            out += CrashRenderer.styled(report, file: inspection.file, options: crashView)
        case .watchdog(let report, let watchdog):
            out += WatchdogRenderer.render(watchdog, report: report, file: inspection.file, options: crashView)
        case .powerLog(let report):
            out += PowerLogRenderer.overview(report, file: inspection.file)
        case .metricKit(let report):
            out += MetricKitRenderer.render(report, file: inspection.file, options: crashView)
        case .systemWatchdog(let report):
            out += SystemReportRenderer.render(report, file: inspection.file)
        case .resource(let report):
            out += SystemReportRenderer.render(report, file: inspection.file)
        case .other(let report):
            // A family registered by an embedder has no text view here: its model is shown as its JSON.
            out += "\(title(for: inspection.kind))  \(inspection.file)\n"
            out += (try? JSONOutput.encode(report, pretty: true)).map { $0 + "\n" } ?? ""
        case nil:
            out += "\(title(for: inspection.kind))  \(inspection.file)\n"
            if let failure = inspection.failure {
                out += "  "
                out.append("could not be read: \(TerminalText.escaped(failure.message))", style: .error)
                out += "\n"
            }
        }
        if !inspection.diagnostics.isEmpty {
            out += "\nDiagnostics\n"
            for diagnostic in inspection.diagnostics {
                var line = "\(diagnostic.severity.rawValue): \(TerminalText.escaped(diagnostic.message))"
                if let location = diagnostic.location { line += "  [\(location)]" }
                out += "  "
                out.append(line, style: style(of: diagnostic.severity))
                out += "\n"
            }
        }
        out += "\n"
        return out
    }

    /// Errors in red and warnings in yellow; a note is information, left plain.
    private static func style(of severity: Diagnostic.Severity) -> StyledText.Style? {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .note: nil
        }
    }

    package static func title(for kind: FileKind) -> String {
        switch kind {
        case .jetsamEvent: "JetsamEvent"
        case .crashReport: "Crash report"
        case .watchdogTermination: "Watchdog termination"
        case .powerLog: "PowerLog"
        case .httpArchive: "HTTP archive"
        case .charlesSession: "Charles session"
        case .packetCapture: "Packet capture"
        case .stackshot: "Stackshot"
        case .panic: "Panic"
        case .otherIPS: "IPS report"
        case .kscrash: "KSCrash report"
        case .metrickit: "MetricKit"
        case .systemWatchdog: "System watchdog"
        case .resourceReport: "Resource report"
        case .archive: "Archive"
        case .unknown: "Unknown"
        }
    }

    package static func keyValues(_ fields: [(String, String)]) -> String {
        let width = fields.map(\.0.count).max() ?? 0
        return fields.map {
            "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + TerminalText.escaped($0.1) + "\n"
        }
        .joined()
    }
}
