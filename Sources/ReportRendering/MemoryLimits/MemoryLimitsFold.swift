import APMInspectCore
import FleetReport
import Foundation
import JetsamParsing

/// Folds the outcomes of `memory-limits` into the table as the workers hand them over, in input order.
///
/// The whole list of outcomes used to wait for the last file; folded in order, duplicates are told apart exactly as
/// before (the first copy counts) and only the table and the failures' messages stay.
package final class MemoryLimitsFold: @unchecked Sendable {
    private let lock = NSLock()
    private var table: MemoryLimitTable
    private var summary: MemoryLimitsRenderer.Summary
    /// Printed after the scan, where they were printed when the outcomes were kept.
    private var failures: [String] = []
    /// The failures and the archives' findings with their codes, for `--schema-version 2` (at most 1,000).
    private var diagnostics: [FleetFinding] = []
    private static let maxDiagnostics = 1_000

    package init(options: MemoryLimitTable.Options) {
        table = MemoryLimitTable(options: options)
        summary = MemoryLimitsRenderer.Summary(files: 0)
    }

    /// Adds the outcomes of the next input, `shown` being how its failures name it.
    package func add(_ outcomes: [(String?, MemoryLimitCollector.Outcome)], shown: String) {
        lock.lock()
        defer { lock.unlock() }
        for (member, outcome) in outcomes {
            switch outcome {
            case .evidence(let evidence, let partial):
                summary.jetsamEvents += 1
                if partial { summary.partial += 1 }
                table.add(evidence)
            case .notJetsam:
                summary.otherFiles += 1
            case .failed(let location, let message, let code):
                summary.failures += 1
                failures.append(ErrorLine.render(path: member ?? shown, location: location, message: message))
                keep(
                    FleetFinding(
                        file: member ?? shown,
                        diagnostic: Diagnostic(.error, .input(code), message, at: location)
                    )
                )
            }
        }
    }

    /// Keeps the findings of an archive (`shown`) for the JSON.
    package func add(findings: [Diagnostic], shown: String) {
        lock.lock()
        defer { lock.unlock() }
        for finding in findings { keep(FleetFinding(file: shown, diagnostic: finding)) }
    }

    /// The failures and findings kept, in input order: `memory-limits`' `diagnostics`.
    package var findings: [FleetFinding] {
        lock.lock()
        defer { lock.unlock() }
        return diagnostics
    }

    private func keep(_ finding: FleetFinding) {
        if diagnostics.count < Self.maxDiagnostics { diagnostics.append(finding) }
    }

    /// The rows, the summary and the failure lines of everything added, `files` being the number of files read.
    package func finish(files: Int) -> (
        rows: [MemoryLimitRow], summary: MemoryLimitsRenderer.Summary, failures: [String]
    ) {
        lock.lock()
        defer { lock.unlock() }
        var summary = summary
        summary.files = files
        summary.duplicates = table.duplicates
        summary.excluded = table.excluded
        return (table.rows, summary, failures)
    }
}
