import HTTPCaptureParsing
import ReportInspection

/// An HTTP capture (HAR, Charles, pcap/pcapng): its summary (the `http` command shows the transactions).
struct HTTPViews: ReportViews {
    func model(of report: Inspection.Report) -> HTTPCapture? {
        guard case .http(let capture) = report else { return nil }
        return capture
    }

    func text(_ capture: HTTPCapture, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        StyledText(
            HTTPRenderer.render(
                capture,
                file: inspection.file,
                title: InspectionRenderer.title(for: inspection.kind),
                detailed: false
            )
        )
    }

    var noun: String { "an HTTP capture" }
}
