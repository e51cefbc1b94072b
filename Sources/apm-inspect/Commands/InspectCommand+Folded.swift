import ArgumentParser
import ReportInspection
import ReportRendering
import ReportSources

extension InspectCommand {
    /// `inspect --format folded`: the sampled call-stack trees of the inputs as folded stacks (``InspectRun``'s
    /// `runFolded`); an input that cannot be read makes the exit status 1.
    func runFolded() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let run = InspectRun(
            reader: InputReader(inspector: ReportInspector(), temporary: temporary),
            format: .text,
            selection: AppSelection(apps: app),
            jobs: 1,
            sink: .console
        )
        let outcome = run.runFolded(PathWalker.inputs(in: paths))
        Self.noteLeftOut(outcome.leftOut)
        if outcome.failures > 0 || Console.outputFailed { throw ExitCode(1) }
    }
}
