import PowerLogReading
import ReportInspection

/// A PowerLog database: its overview, and the apps that used the most energy for `scan`'s inventory (the
/// `energy` command reads the database itself, section by section).
struct PowerLogViews: ReportViews {
    func model(of report: Inspection.Report) -> PowerLogReport? {
        guard case .powerLog(let powerLog) = report else { return nil }
        return powerLog
    }

    func text(_ report: PowerLogReport, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        StyledText(PowerLogRenderer.overview(report, file: inspection.file))
    }

    func record(_ report: PowerLogReport, inspection: Inspection, into record: inout ScanRecord) {
        record.energyTopApps = report.apps.filter { $0.kind == .app }.prefix(5).map { app in
            "\(app.name) \(Formatting.oneDecimal(app.share * 100)) %"
        }
    }

    var noun: String { "a PowerLog database" }
}
