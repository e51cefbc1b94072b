import APMInspectCore
import ArgumentParser
import ReportInspection
import ReportRendering
import ReportSources

extension InspectCommand {
    /// `inspect --format sentry|sentry-envelope|otel`: events are built on the workers and printed in input order.
    func runBackend(_ backend: BackendFormat) throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let inputs = PathWalker.inputs(in: paths)
        var digesting = ReportInspector()
        digesting.digestsContent = true
        let symbolication = ReportSymbolication.make(dsymPaths: dsym)
        digesting.symbolicator = symbolication?.symbolicator
        let reader = InputReader(inspector: digesting, temporary: temporary)
        let printer = BackendEventPrinter(
            format: backend,
            directory: output,
            inputs: output == nil ? [] : Self.identities(of: inputs, named: paths),
            toolVersion: APMInspect.configuration.version,
            imageVMAddress: symbolication.map { BackendEventPrinter.vmAddresses(from: $0.symbolicator.source) }
        )
        let failures = AtomicCounter()
        let progress = ProgressBar(total: inputs.count, label: "inspect", streamsOutput: true)
        let selection = AppSelection(apps: app)
        let leftOut = AtomicCounter()
        ParallelMap.forEachInOrder(
            count: inputs.count,
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            progress: { progress.advance() },
            transform: { index -> (InputRead, [BackendEventPrinter.Rendered]) in
                let read = reader.read(inputs[index])
                return (read, read.inspections.map { printer.render($0) })
            },
            consume: { read, rendered in
                Self.printFindings(read)
                for (inspection, rendered) in zip(read.inspections, rendered) {
                    guard Self.admits(inspection, selection: selection, leftOut: leftOut, failures: failures) else {
                        continue
                    }
                    if inspection.failure == nil, let note = rendered.note {
                        Console.error(
                            ErrorLine.render(path: inspection.file, location: nil, message: note, severity: "note")
                        )
                    }
                    for (id, time) in rendered.beyondRetention {
                        let note =
                            "event \(id) happened at \(time), before Sentry's 90-day retention window: Sentry will "
                            + "date it when it receives it; the tag original_timestamp keeps its own time"
                        Console.error(
                            ErrorLine.render(path: inspection.file, location: nil, message: note, severity: "note")
                        )
                    }
                    printer.write(rendered)
                }
                return !Console.outputFailed
            }
        )
        progress.finish()
        Self.noteLeftOut(leftOut.current)
        let failed = BackendEventPrinter.finish(printer, summary: "\(inputs.count) inputs")
        if failures.current > 0 || failed { throw ExitCode(1) }
    }

    /// The files read, by identity: envelopes written into `-o DIR` never replace one of them.
    static func identities(of inputs: [PathWalker.Input], named paths: [String]) -> Set<FileIdentity> {
        let files = inputs.compactMap { input -> RawPath? in
            if case .file(let raw) = input { return raw }
            return nil
        }
        return OutputFile.identities(of: paths).union(OutputFile.identities(of: files))
    }
}
