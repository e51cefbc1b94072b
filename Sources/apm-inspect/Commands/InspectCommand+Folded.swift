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
            if case .crash(let report) = inspection.report, let profile = report.profile {
                writeFolded(profile, file: inspection.file)
                if Console.outputFailed { break }
                continue
            }
            guard case .metricKit(let report) = inspection.report else {
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
            var trees = 0
            for diagnostic in report.diagnostics {
                guard let tree = diagnostic.callTree else { continue }
                trees += 1
                let root = "\(diagnostic.kind.rawValue)@\(diagnostic.keyPath)".map { $0 == ";" || $0 == " " ? "_" : $0 }
                let (lines, complete) = tree.foldedStacks()
                Console.text(lines.map { String(root) + ";" + $0 + "\n" }.joined())
                if !complete {
                    Console.error(
                        ErrorLine.render(
                            path: inspection.file,
                            location: nil,
                            message: "\(diagnostic.keyPath): the tree is deeper than the frame budget; stacks cut",
                            severity: "warning"
                        )
                    )
                }
            }
            if trees == 0 {
                Console.error(
                    ErrorLine.render(
                        path: inspection.file,
                        location: nil,
                        message: "no diagnostic with a call-stack tree",
                        severity: "note"
                    )
                )
            }
            if Console.outputFailed { break }
        }
        if failed || Console.outputFailed { throw ExitCode(1) }
    }

    /// A KSCrash profile's samples, each stack under a root frame naming the profile.
    private func writeFolded(_ profile: CrashReport.Profile, file: String) {
        let root = CrashReport.Profile.foldedField("profile@" + (profile.name ?? "?"))
        let (lines, complete) = profile.foldedStacks()
        Console.text(lines.map { root + ";" + $0 + "\n" }.joined())
        if lines.isEmpty {
            Console.error(
                ErrorLine.render(path: file, location: nil, message: "the profile has no sample", severity: "note")
            )
        }
        if !complete {
            Console.error(
                ErrorLine.render(
                    path: file,
                    location: nil,
                    message: "the profile's samples exceed the frame budget; stacks cut",
                    severity: "warning"
                )
            )
        }
    }
}
