import APMInspectCore
import BackendExport
import CrashReportParsing
import FleetReport
import ReportInspection

/// A crash report (Apple's JSON `.ips` or text, KSCrash, a system report read as one): its threads, the crash
/// signature `scan` groups by, the crash the fleet report counts, a KSCrash profile's samples as flame-graph input.
struct CrashViews: ReportViews {
    func model(of report: Inspection.Report) -> CrashReport? {
        guard case .crash(let crash) = report else { return nil }
        return crash
    }

    func text(_ crash: CrashReport, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        CrashRenderer.styled(crash, file: inspection.file, options: crashView)
    }

    func speaks(of filter: FleetFilter, in crash: CrashReport) -> Bool {
        filter.admitsApp(bundleId: crash.bundleId, process: crash.process)
    }

    /// Only a crash has a signature: a profile, a hang or a report that says it is not a crash is not grouped.
    func record(_ crash: CrashReport, inspection: Inspection, into record: inout ScanRecord) {
        guard let signature = crash.signature, !crash.isNotACrash, crash.category ?? .crash == .crash else { return }
        let exception = crash.exception?.typeAndSignal ?? ""
        record.crash = ScanRecord.Crash(
            signature: signature,
            process: crash.process ?? "?",
            exception: exception.isEmpty ? "?" : exception,
            topFrame: crash.signatureFrames?.first
        )
    }

    func fleetFacts(_ crash: CrashReport, inspection: Inspection, into event: inout FleetEvent) {
        if let counted = FleetEvent.crash(crash, source: inspection.kind.rawValue) { event.crashes = [counted] }
        event.occurrence = FleetEvent.occurrence(crash)
        event.resource = FleetEvent.resource(crash, source: inspection.kind.rawValue)
        event.hangs = FleetEvent.hang(crash).map { [$0] } ?? []
    }

    /// A KSCrash profile's samples, each stack under a root frame naming the profile.
    func foldedStacks(_ crash: CrashReport) -> FoldedStacks? {
        guard let profile = crash.profile else { return nil }
        let root = CrashReport.Profile.foldedField("profile@" + (profile.name ?? "?"))
        let (lines, complete) = profile.foldedStacks()
        var stacks = FoldedStacks()
        stacks.append(lines: lines, under: root)
        if lines.isEmpty { stacks.note("the profile has no sample") }
        if !complete { stacks.warn("the profile's samples exceed the frame budget; stacks cut") }
        return stacks
    }

    func backendIncidents(_ crash: CrashReport, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents(
            BackendEvents.incidents(crash: crash, imageVMAddress: imageVMAddress),
            whenEmpty: crash.category == .profile
                ? "a sampling profile, not a crash" : "the report says it is not a crash"
        )
    }
}
