import ReportInspection

/// A file no family recognised: its format as sniffed, its size, and what to try instead.
struct UnrecognisedViews: ReportViews {
    func model(of report: Inspection.Report) -> UnrecognisedSummary? {
        guard case .unrecognised(let summary) = report else { return nil }
        return summary
    }

    func text(_ summary: UnrecognisedSummary, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        var out = "Unknown  \(inspection.file)\n"
        out += InspectionRenderer.keyValues([
            ("Format", summary.format.rawValue), ("Size", "\(Formatting.grouped(summary.bytes)) bytes"),
            ("Note", summary.note),
        ])
        return StyledText(out)
    }

    var noun: String { "a file of unknown kind" }
}
