import APMInspectCore
import Foundation

/// The end-of-run report: plain text a user can paste into a bug report as it is.
enum FuzzSummary {
    /// The report of a finished run.
    ///
    /// The tool's version and the way durations are written come from the executable, which owns both.
    ///
    /// - Parameters:
    ///   - supervisor: the run, for its counts and coverage.
    ///   - corpus: the seed files, for the families.
    ///   - store: the findings.
    ///   - version: the tool's version, for the first line.
    ///   - seconds: how the run's duration is written (the executable's number formatting).
    /// - Returns: the lines of the report, each ending in a newline.
    static func render(
        supervisor: FuzzSupervisor,
        corpus: FuzzCorpus,
        store: FindingStore,
        version: String,
        seconds: (Double) -> String
    ) -> String {
        let configuration = supervisor.configuration
        let runs = supervisor.executionCount
        let elapsed = supervisor.elapsed
        let rate = Double(runs) / max(elapsed, 0.001)
        let families = Dictionary(grouping: corpus.entries, by: \.label).map { "\($0.key) \($0.value.count)" }.sorted()
        let coverage = supervisor.familyCoverage
        var lines = [
            "apm-inspect fuzz \(version)",
            "seed \(configuration.seed), \(runs) inputs in \(seconds(elapsed)) s "
                + "(\(Int(saturating: rate.rounded())) exec/s, \(configuration.jobs) job\(configuration.jobs == 1 ? "" : "s"))",
            "corpus: \(corpus.entries.count) files; families run \(coverage.run)/\(coverage.total): "
                + families.joined(separator: ", "),
            "read as: " + supervisor.kindsRead.map { "\($0.kind) \($0.count)" }.joined(separator: ", "),
            "readers: " + supervisor.readersRun.map { "\($0.reader) \($0.count)" }.joined(separator: ", "),
        ]
        let records = store.all
        if records.isEmpty {
            lines.append("findings: none")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("findings: \(records.count) (saved in \(TerminalText.escaped(store.outputFolder)))")
        for record in records.sorted(by: { $0.directory < $1.directory }) {
            let message = record.message.split(separator: "\n").first.map(String.init) ?? ""
            lines.append("")
            lines.append("[\(record.kind)] \(record.family) — \(record.parser): \(TerminalText.escaped(message))")
            if !record.stack.isEmpty {
                lines.append("  stack: " + record.stack.prefix(5).map(TerminalText.escaped).joined(separator: " ← "))
            }
            lines.append(
                "  from \(TerminalText.escaped(record.corpusFile)), iteration \(record.iteration), "
                    + "mutation \(record.mutation)"
            )
            lines.append(
                "  input \(record.inputBytes) bytes, minimised to \(record.minimisedBytes) "
                    + "(\(record.minimisationTests) runs\(record.minimisationComplete ? "" : ", budget reached")); "
                    + "seen \(record.duplicates + 1) time\(record.duplicates == 0 ? "" : "s")"
            )
            lines.append("  saved: \(TerminalText.escaped(record.directory))/")
            lines.append("  replay: apm-inspect inspect \(TerminalText.escaped(record.directory))/minimised.bin")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
