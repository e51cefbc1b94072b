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
        if let report = inspection.report {
            if let views = FamilyRegistry.views(of: report),
                let text = views.text(of: report, inspection: inspection, crashView: crashView)
            {
                out += text
            } else {
                // A family registered by an embedder has no text view here: its model is shown as its JSON.
                out += "\(title(for: inspection.kind))  \(inspection.file)\n"
                out += (try? JSONOutput.encode(report, pretty: true)).map { $0 + "\n" } ?? ""
            }
        } else {
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

    /// What the view calls `kind` ("Crash report"): the title its family registered with it.
    package static func title(for kind: FileKind) -> String {
        ReportInspector.title(of: kind)
    }

    package static func keyValues(_ fields: [(String, String)]) -> String {
        let width = fields.map(\.0.count).max() ?? 0
        return fields.map {
            "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + TerminalText.escaped($0.1) + "\n"
        }
        .joined()
    }
}
