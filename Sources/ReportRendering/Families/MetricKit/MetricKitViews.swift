import BackendExport
import FleetReport
import MetricKitParsing
import ReportInspection

/// A MetricKit payload file: its diagnostics and metrics, the crashes and tallies the fleet report counts, each
/// diagnostic's call-stack tree as flame-graph input.
struct MetricKitViews: ReportViews {
    func model(of report: Inspection.Report) -> MetricKitReport? {
        guard case .metricKit(let metricKit) = report else { return nil }
        return metricKit
    }

    func text(_ report: MetricKitReport, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        MetricKitRenderer.render(report, file: inspection.file, options: crashView)
    }

    /// Kept when any payload's diagnostics or metrics are one of the apps'.
    func speaks(of filter: FleetFilter, in report: MetricKitReport) -> Bool {
        report.payloads.contains { payload in
            let ids = payload.diagnostics.map(\.metadata.bundleIdentifier)
            return (ids + [payload.metrics?.metadata?.bundleIdentifier]).contains {
                filter.admitsApp(bundleId: $0, process: nil)
            }
        }
    }

    func fleetFacts(_ report: MetricKitReport, inspection: Inspection, into event: inout FleetEvent) {
        (event.metricKit, event.crashes) = FleetEvent.metricKit(report)
        event.hangs = FleetEvent.hangs(report)
    }

    /// Each stack starts with a frame naming its diagnostic (`hang`, `cpuException` …) and where it sits in the
    /// payload, so the stacks of several diagnostics can share one graph and still be told apart.
    func foldedStacks(_ report: MetricKitReport) -> FoldedStacks? {
        var stacks = FoldedStacks()
        var trees = 0
        for diagnostic in report.diagnostics {
            guard let tree = diagnostic.callTree else { continue }
            trees += 1
            let root = String(
                "\(diagnostic.kind.rawValue)@\(diagnostic.keyPath)".map { $0 == ";" || $0 == " " ? "_" : $0 }
            )
            let (lines, complete) = tree.foldedStacks()
            stacks.append(lines: lines, under: root)
            if !complete { stacks.warn("\(diagnostic.keyPath): the tree is deeper than the frame budget; stacks cut") }
        }
        if trees == 0 { stacks.note("no diagnostic with a call-stack tree") }
        return stacks
    }

    func backendIncidents(_ report: MetricKitReport, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents(
            BackendEvents.incidents(metricKit: report),
            whenEmpty: "no crash, hang, CPU or disk-write diagnostic"
        )
    }

    func backendMetricPayloads(_ report: MetricKitReport) -> [MetricPayloadFigures] {
        BackendEvents.metricPayloads(metricKit: report)
    }
}
