import FleetReport
import MetricKitParsing
import ReportInspection

/// An App Store Connect diagnostics response: its logs shown and folded as MetricKit diagnostics, counted by the
/// fleet report as hangs and resource warnings.
struct AppStoreConnectViews: ReportViews {
    func model(of report: Inspection.Report) -> AppStoreConnectReport? {
        guard case .appStoreConnect(let response) = report else { return nil }
        return response
    }

    func text(_ report: AppStoreConnectReport, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        AppStoreConnectRenderer.render(report, file: inspection.file, options: crashView)
    }

    func speaks(of filter: FleetFilter, in report: AppStoreConnectReport) -> Bool {
        report.logs.contains { filter.admitsApp(bundleId: $0.diagnostic.metadata.bundleIdentifier, process: nil) }
    }

    func fleetFacts(_ report: AppStoreConnectReport, inspection: Inspection, into event: inout FleetEvent) {
        event.occurrence = AppStoreConnectFacts.occurrence(report)
        event.hangs = FleetEvent.hangs(report)
    }

    /// Each stack starts with a frame naming the log's kind and where it sits, as MetricKit's do.
    func foldedStacks(_ report: AppStoreConnectReport) -> FoldedStacks? {
        var stacks = FoldedStacks()
        var trees = 0
        for log in report.logs {
            let diagnostic = log.diagnostic
            for (index, tree) in ([diagnostic.callTree].compactMap { $0 } + (log.moreCallTrees ?? [])).enumerated() {
                trees += 1
                let place = index == 0 ? diagnostic.keyPath : "\(diagnostic.keyPath).callStackTree[\(index)]"
                let root = String("\(diagnostic.kind.rawValue)@\(place)".map { $0 == ";" || $0 == " " ? "_" : $0 })
                let (lines, complete) = tree.foldedStacks()
                stacks.append(lines: lines, under: root)
                if !complete { stacks.warn("\(place): the tree is deeper than the frame budget; stacks cut") }
            }
        }
        if trees == 0 { stacks.note("no log with a call-stack tree") }
        return stacks
    }

    var noun: String {
        "an App Store Connect response"
    }
}
