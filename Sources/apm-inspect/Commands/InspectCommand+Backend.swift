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
        let symbolication = ReportSymbolication.make(dsymPaths: dsym, symbols: symbolOptions.sources, sink: .console)
        digesting.symbolicator = symbolication?.symbolicator
        let printer = BackendEventPrinter(
            format: backend,
            directory: output,
            inputs: output == nil ? [] : Self.identities(of: inputs, named: paths),
            toolVersion: APMInspect.configuration.version,
            imageVMAddress: symbolication.map { BackendEventPrinter.vmAddresses(from: $0.symbolicator.source) }
        )
        let run = InspectRun(
            reader: InputReader(inspector: digesting, temporary: temporary),
            format: format.format,
            selection: AppSelection(apps: app),
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            sink: .console
        )
        let progress = ProgressBar(total: inputs.count, label: "inspect", streamsOutput: true)
        let outcome = run.runBackend(inputs, printer: printer, progress: { progress.advance() })
        progress.finish()
        Self.noteLeftOut(outcome.leftOut)
        let failed = printer.finish(summary: "\(inputs.count) inputs", sink: .console)
        if outcome.failures > 0 || failed { throw ExitCode(1) }
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
