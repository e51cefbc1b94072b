import APMInspectCore
import ReportInspection
import ReportSources

extension InspectRun {
    /// One input as the workers leave it for the printing thread, its events built on the worker when it was read.
    enum BackendStep: Sendable {
        case read(InputRead, [BackendEventPrinter.Rendered])
        case stream(PathWalker.Input)
    }

    /// `inspect --format sentry|sentry-envelope|otel`: the events of `inputs`, built on the workers and printed (or
    /// written) by `printer` in input order; an archive's are built as it is read, when its turn comes.
    ///
    /// The reader's inspector should digest the content (``ReportInspector/digestsContent``): event ids follow it.
    package func runBackend(
        _ inputs: [PathWalker.Input],
        printer: BackendEventPrinter,
        progress: (@Sendable () -> Void)? = nil
    ) -> Outcome {
        let failures = AtomicCounter()
        let leftOut = AtomicCounter()
        ParallelMap.forEachInOrder(
            count: inputs.count,
            jobs: jobs,
            progress: progress,
            transform: { index -> BackendStep in
                guard let read = reader.readUnlessArchive(inputs[index]) else { return .stream(inputs[index]) }
                return .read(read, read.inspections.map { printer.render($0) })
            },
            consume: { step in
                func write(_ inspection: Inspection, _ rendered: BackendEventPrinter.Rendered) {
                    guard admits(inspection, leftOut: leftOut, failures: failures) else { return }
                    if inspection.failure == nil, let note = rendered.note {
                        sink.error(
                            ErrorLine.render(path: inspection.file, location: nil, message: note, severity: "note")
                        )
                    }
                    for (id, time) in rendered.beyondRetention {
                        let note =
                            "event \(id) happened at \(time), before Sentry's 90-day retention window: Sentry will "
                            + "date it when it receives it; the tag original_timestamp keeps its own time"
                        sink.error(
                            ErrorLine.render(path: inspection.file, location: nil, message: note, severity: "note")
                        )
                    }
                    printer.write(rendered)
                }
                let read: InputRead
                switch step {
                case .read(let held, let rendered):
                    read = held
                    for (inspection, rendered) in zip(held.inspections, rendered) { write(inspection, rendered) }
                case .stream(let input):
                    read = reader.stream(input) { write($0, printer.render($0)) }
                }
                Self.printFindings(read, to: sink)
                return !sink.stopped
            }
        )
        return Outcome(failures: failures.current, leftOut: leftOut.current)
    }
}
