import APMInspectCore
import BackendExport
import FleetReport
import ReportInspection

/// Everything a family's model means beyond parsing: how it reads as text, what `scan`, `report`, `--app`,
/// `--format folded` and the backend formats (Sentry, OTLP) take from it.
///
/// The commands never switch over the report's kind: they ask the registry (``FamilyRegistry``) for the views of
/// a report and call these. A family of reports is thus one folder (its ``ReportFamily`` in ReportInspection, its
/// views and renderers here) and one registration line; what a family does not override contributes nothing
/// (no scan facts, no fleet facts, no flame graph), which is right for most of them.
package protocol ReportViews: Sendable {
    /// The typed model these views show: one case of ``Inspection/Report``.
    associatedtype Model

    /// The model when `report` is this family's; nil hands it on.
    ///
    /// The one place a family looks at the report enum, so that adding a case touches one file.
    func model(of report: Inspection.Report) -> Model?

    /// The human summary of the model, below which the inspector adds the diagnostics.
    func text(_ model: Model, inspection: Inspection, crashView: CrashViewOptions) -> StyledText

    /// Whether `--app` keeps the report: whether it speaks of one of the filter's apps.
    ///
    /// By default a model names no app, so the file is left out.
    func speaks(of filter: FleetFilter, in model: Model) -> Bool

    /// What `scan`'s inventory keeps of the model (crash signatures, OS kills, memory-limit evidence, energy).
    func record(_ model: Model, inspection: Inspection, into record: inout ScanRecord)

    /// What the fleet report counts of the model (crashes, watchdog kills, OOMs, occurrences, MetricKit tallies).
    func fleetFacts(_ model: Model, inspection: Inspection, into event: inout FleetEvent)

    /// The model's sampled call stacks as flame-graph input (`inspect --format folded`); nil when it has none.
    func foldedStacks(_ model: Model) -> FoldedStacks?

    /// The incidents the backend formats send (Sentry events, OTLP log records), or why there are none.
    func backendIncidents(_ model: Model, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents

    /// The metric payloads OTLP sends beside the incidents (MetricKit's metrics).
    func backendMetricPayloads(_ model: Model) -> [MetricPayloadFigures]

    /// What the model is, for a sentence ("an HTTP capture has no backend event").
    var noun: String { get }
}

/// A dSYM or binary's `__TEXT` address for an image (uuid, architecture): Sentry's `image_vmaddr`.
package typealias ImageVMAddressLookup = @Sendable (_ uuid: String, _ arch: String?) -> UInt64?

/// The incidents of one report for the backend formats, or the reason it has none (said on standard error).
package struct BackendIncidents {
    package var incidents: [BackendIncident]
    package var note: String?

    package init(_ incidents: [BackendIncident], whenEmpty note: String? = nil) {
        self.incidents = incidents
        self.note = incidents.isEmpty ? note : nil
    }
}

extension ReportViews {
    package func speaks(of filter: FleetFilter, in model: Model) -> Bool {
        false
    }

    package func record(_ model: Model, inspection: Inspection, into record: inout ScanRecord) {}

    package func fleetFacts(_ model: Model, inspection: Inspection, into event: inout FleetEvent) {}

    package func foldedStacks(_ model: Model) -> FoldedStacks? {
        nil
    }

    package func backendIncidents(_ model: Model, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents([], whenEmpty: "\(noun) has no backend event")
    }

    package func backendMetricPayloads(_ model: Model) -> [MetricPayloadFigures] {
        []
    }

    package var noun: String {
        "this report"
    }
}

// The entry points the registry calls on `any ReportViews`: each opens the model once and is nil when the report
// is not this family's.
extension ReportViews {
    func claims(_ report: Inspection.Report) -> Bool {
        model(of: report) != nil
    }

    func text(of report: Inspection.Report, inspection: Inspection, crashView: CrashViewOptions) -> StyledText? {
        model(of: report).map { text($0, inspection: inspection, crashView: crashView) }
    }

    func speaks(of filter: FleetFilter, report: Inspection.Report) -> Bool {
        model(of: report).map { speaks(of: filter, in: $0) } ?? false
    }

    func record(of report: Inspection.Report, inspection: Inspection, into record: inout ScanRecord) {
        guard let model = model(of: report) else { return }
        self.record(model, inspection: inspection, into: &record)
    }

    func fleetFacts(of report: Inspection.Report, inspection: Inspection, into event: inout FleetEvent) {
        guard let model = model(of: report) else { return }
        fleetFacts(model, inspection: inspection, into: &event)
    }

    func foldedStacks(of report: Inspection.Report) -> FoldedStacks? {
        model(of: report).flatMap { foldedStacks($0) }
    }

    func backendIncidents(of report: Inspection.Report, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        model(of: report).map { backendIncidents($0, imageVMAddress: imageVMAddress) } ?? BackendIncidents([])
    }

    func backendMetricPayloads(of report: Inspection.Report) -> [MetricPayloadFigures] {
        model(of: report).map { backendMetricPayloads($0) } ?? []
    }
}
