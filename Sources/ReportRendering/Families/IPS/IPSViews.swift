import APMInspectCore
import FleetReport
import ReportInspection

/// An `.ips` report of a kind apm-inspect does not model (a stackshot, a panic, any other bug_type): its header
/// and what its body is.
struct IPSViews: ReportViews {
    func model(of report: Inspection.Report) -> IPSSummary? {
        guard case .ips(let summary) = report else { return nil }
        return summary
    }

    func text(_ summary: IPSSummary, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        var out = "\(InspectionRenderer.title(for: inspection.kind))  \(inspection.file)\n"
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
        out += InspectionRenderer.keyValues(fields)
        return StyledText(out)
    }

    func speaks(of filter: FleetFilter, in summary: IPSSummary) -> Bool {
        filter.admitsApp(bundleId: summary.header?.bundleID, process: summary.header?.name)
    }

    var noun: String { "a report of this family" }
}
