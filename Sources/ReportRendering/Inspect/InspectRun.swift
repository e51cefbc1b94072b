import APMInspectCore
import ReportInspection
import ReportSources

/// `inspect`'s pipeline: reads the inputs on worker threads and prints each one's envelopes (or text views, or
/// backend events) in input order, as soon as it and every input before it are read.
///
/// An input that may hold many reports (a tar or tar.gz, standard input, a FIFO) is read only when its turn comes,
/// by the thread that prints, so that its envelopes are printed as they are read instead of all held until the
/// last: memory stays flat however many reports an archive holds. The other inputs are read ahead by the workers,
/// bounded by ``ParallelMap``'s window.
package struct InspectRun: Sendable {
    /// What a run leaves for the command's exit status and notes.
    package struct Outcome: Sendable, Equatable {
        /// Inputs or envelopes that failed (unreadable, or an envelope replaced by its error envelope).
        package var failures: Int
        /// Inspections `--app` left out.
        package var leftOut: Int
    }

    /// One input as the workers leave it for the printing thread.
    enum Step: Sendable {
        /// Read whole by a worker: one inspection.
        case read(InputRead)
        /// Left for the printing thread, which streams it.
        case stream(PathWalker.Input)
    }

    package let reader: InputReader
    /// `text`, `json` or `ndjson` (``runBackend(_:_:progress:)`` prints the backend formats).
    package var format: OutputFormat
    /// `--format json` prints the only envelope as an object, not an array (``EnvelopePrinter``).
    package var oneObject: Bool
    package var crashView: CrashViewOptions
    /// The text view's colours.
    package var color: Bool
    /// `--app`.
    package var selection: AppSelection?
    package var jobs: Int
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(
        reader: InputReader,
        format: OutputFormat,
        oneObject: Bool = false,
        crashView: CrashViewOptions = .standard,
        color: Bool = false,
        selection: AppSelection? = nil,
        jobs: Int,
        sink: OutputSink
    ) {
        self.reader = reader
        self.format = format
        self.oneObject = oneObject
        self.crashView = crashView
        self.color = color
        self.selection = selection
        self.jobs = jobs
        self.sink = sink
    }

    /// Prints the envelopes or text views of `inputs`, in their order.
    package func run(_ inputs: [PathWalker.Input], progress: (@Sendable () -> Void)? = nil) -> Outcome {
        let failures = AtomicCounter()
        let leftOut = AtomicCounter()
        let printer = EnvelopePrinter(format: format, oneObject: oneObject, sink: sink)
        ParallelMap.forEachInOrder(
            count: inputs.count,
            jobs: jobs,
            progress: progress,
            transform: { index in step(inputs[index]) },
            consume: { step in
                let input = InspectInputPrinter(run: self, printer: printer, failures: failures, leftOut: leftOut)
                input.finish(read(step, each: input.add))
                // Once standard output is lost (a reader gone, a full disk), reading on is wasted work.
                return !sink.stopped
            }
        )
        printer.finish()
        return Outcome(failures: failures.current, leftOut: leftOut.current)
    }

    /// What a worker makes of an input: read whole, or left for the printing thread.
    func step(_ input: PathWalker.Input) -> Step {
        reader.readUnlessArchive(input).map(Step.read) ?? .stream(input)
    }

    /// Hands the inspections of a step to `body`, in order: those a worker read, or those of the input read now.
    func read(_ step: Step, each body: (Inspection) -> Void) -> InputRead {
        switch step {
        case .read(let read):
            read.inspections.forEach(body)
            return read
        case .stream(let input):
            return reader.stream(input, body)
        }
    }

    /// False for an inspection `--app` leaves out (counted); an unreadable one is counted and said on standard
    /// error, then printed in its place like any other.
    func admits(_ inspection: Inspection, leftOut: AtomicCounter, failures: AtomicCounter) -> Bool {
        if let selection, !selection.keeps(inspection) {
            _ = leftOut.increment()
            return false
        }
        if let failure = inspection.failure {
            _ = failures.increment()
            sink.error(ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message))
        }
        return true
    }

    /// Says an archive's findings on standard error, and that it held no report when it held none.
    package static func printFindings(_ read: InputRead, to sink: OutputSink) {
        for finding in read.findings {
            sink.error(
                ErrorLine.render(
                    path: read.shown,
                    location: finding.location,
                    message: finding.message,
                    severity: finding.severity.rawValue
                )
            )
        }
        if read.isArchive && read.reports == 0 {
            sink.error(
                ErrorLine.render(
                    path: read.shown,
                    location: nil,
                    message: "the archive holds no report this build reads",
                    severity: "note"
                )
            )
        }
    }

    /// The note on how many files `--app` left out; nil when it left none out.
    package static func leftOutNote(_ count: Int) -> String? {
        guard count > 0 else { return nil }
        return "note: \(count) file(s) left out by --app (they speak of no app given)"
    }
}
