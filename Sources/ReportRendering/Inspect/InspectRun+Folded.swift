import ReportInspection
import ReportSources

extension InspectRun {
    /// `inspect --format folded`: every sampled call-stack tree of the inputs (MetricKit diagnostics, KSCrash
    /// profiles) as folded stacks, the input of flame-graph tools (`flamegraph.pl`, speedscope, inferno).
    ///
    /// Each stack starts with a frame naming where it came from (``FamilyRegistry/foldedStacks(of:)``), so the
    /// stacks of several diagnostics can share one graph and still be told apart. Inputs without a tree are said
    /// on standard error. Inputs are read one after the other and an archive's reports streamed, so memory holds
    /// one report at a time.
    package func runFolded(_ inputs: [PathWalker.Input]) -> Outcome {
        var failures = 0
        var leftOut = 0
        for input in inputs {
            let read = reader.stream(input) { inspection in
                guard !sink.stopped else { return }
                if let selection, !selection.keeps(inspection) {
                    leftOut += 1
                    return
                }
                if let failure = inspection.failure {
                    failures += 1
                    sink.error(
                        ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message)
                    )
                    return
                }
                writeFolded(of: inspection)
            }
            Self.printFindings(read, to: sink)
            if sink.stopped { break }
        }
        return Outcome(failures: failures, leftOut: leftOut)
    }

    private func writeFolded(of inspection: Inspection) {
        guard let stacks = FamilyRegistry.foldedStacks(of: inspection) else {
            let note = "no sampled call-stack tree: --format folded reads MetricKit diagnostics and KSCrash profiles"
            sink.error(ErrorLine.render(path: inspection.file, location: nil, message: note, severity: "note"))
            return
        }
        for entry in stacks.entries {
            switch entry {
            case .stacks(let text):
                sink.text(text)
            case .finding(let severity, let message):
                sink.error(ErrorLine.render(path: inspection.file, location: nil, message: message, severity: severity))
            }
        }
    }
}
