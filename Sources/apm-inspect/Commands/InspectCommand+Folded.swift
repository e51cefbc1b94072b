import ArgumentParser
import CrashReportParsing
import MetricKitParsing
import ReportInspection
import ReportRendering
import ReportSources

extension InspectCommand {
    /// `inspect --format folded`: every sampled call-stack tree of the MetricKit inputs as folded stacks, the input
    /// of flame-graph tools (`flamegraph.pl`, speedscope, inferno).
    ///
    /// Each stack starts with a frame naming its diagnostic (`hang`, `cpuException` …) and the payload it came
    /// from, so the stacks of several diagnostics can share one graph and still be told apart. Inputs without a
    /// tree are said on standard error; an input that cannot be read makes the exit status 1.
    func runFolded() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let reader = InputReader(inspector: ReportInspector(), temporary: temporary)
        var failed = false
        let selection = AppSelection(apps: app)
        var leftOut = 0
        defer { Self.noteLeftOut(leftOut) }
        let inspections = PathWalker.inputs(in: paths).lazy.flatMap { input in
            let read = reader.read(input)
            Self.printFindings(read)
            return read.inspections
        }
        for inspection in inspections {
            if let selection, !selection.keeps(inspection) {
                leftOut += 1
                continue
            }
            if let failure = inspection.failure {
                failed = true
                Console.error(
                    ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message)
                )
                continue
            }
            guard let stacks = FamilyRegistry.foldedStacks(of: inspection) else {
                Console.error(
                    ErrorLine.render(
                        path: inspection.file,
                        location: nil,
                        message: "no sampled call-stack tree: --format folded reads MetricKit diagnostics and "
                            + "KSCrash profiles",
                        severity: "note"
                    )
                )
                continue
            }
            for entry in stacks.entries {
                switch entry {
                case .stacks(let text):
                    Console.text(text)
                case .finding(let severity, let message):
                    Console.error(
                        ErrorLine.render(path: inspection.file, location: nil, message: message, severity: severity)
                    )
                }
            }
            if Console.outputFailed { break }
        }
        if failed || Console.outputFailed { throw ExitCode(1) }
    }
}
