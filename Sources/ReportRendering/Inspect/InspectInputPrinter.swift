import ReportInspection
import ReportSources

/// Prints one input's envelopes for ``InspectRun`` as they come, then the input's findings and its archive
/// envelope.
///
/// Until the printer has begun, a single input printed as one object (`-` holding an archive) must first learn
/// whether it gives one envelope or more: the first is held until a second comes or the input ends, never more.
final class InspectInputPrinter: @unchecked Sendable {
    private let run: InspectRun
    private let printer: EnvelopePrinter
    private let failures: AtomicCounter
    private let leftOut: AtomicCounter
    /// Envelopes of this input so far, those `--app` left out included (the shape was decided on them).
    private var seen = 0
    private var held: [Inspection] = []

    init(run: InspectRun, printer: EnvelopePrinter, failures: AtomicCounter, leftOut: AtomicCounter) {
        self.run = run
        self.printer = printer
        self.failures = failures
        self.leftOut = leftOut
    }

    /// Prints one inspection of the input, unless `--app` leaves it out.
    func add(_ inspection: Inspection) {
        seen += 1
        guard run.admits(inspection, leftOut: leftOut, failures: failures) else { return }
        if run.format == .text {
            run.sink.fittedText(InspectionRenderer.styled(inspection, crashView: run.crashView), color: run.color)
            return
        }
        if !printer.begun && printer.oneObject {
            held.append(inspection)
            if seen < 2 { return }
            printer.begin(count: seen)
            flush()
            return
        }
        printer.begin()
        print(inspection)
    }

    /// Ends the input: what was held, its findings on standard error, then its archive envelope, after its reports,
    /// so the JSON holds every finding.
    func finish(_ read: InputRead) {
        let archive =
            read.findings.isEmpty || run.format == .text ? nil : Inspection.archive(read.shown, findings: read.findings)
        if archive != nil { seen += 1 }
        // Standard input that held an archive is printed as an array after all, as the archive's file is.
        printer.begin(count: seen, fromArchive: read.isArchive)
        flush()
        InspectRun.printFindings(read, to: run.sink)
        if let archive { print(archive) }
    }

    private func flush() {
        for inspection in held { print(inspection) }
        held.removeAll()
    }

    private func print(_ inspection: Inspection) {
        if printer.print(inspection) { _ = failures.increment() }
    }
}
