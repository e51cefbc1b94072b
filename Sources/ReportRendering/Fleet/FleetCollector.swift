import APMInspectCore
import FleetReport
import Foundation
import ReportInspection
import ReportSources

/// The aggregator behind a lock: results arrive in input order, one at a time, from whichever worker has them.
package final class FleetCollector: @unchecked Sendable {
    package enum Item: Sendable {
        case scanned(ReportScanner.Result)
        /// Read when its turn comes, on the consuming thread: its envelopes stream through the aggregator.
        case ndjson(RawPath)
    }

    private let lock = NSLockShim()
    private var aggregator: FleetAggregator
    package private(set) var errors: [String] = []
    /// Threads that decode NDJSON lines.
    package let jobs: Int

    /// `report --grouping`: the rules that name the crash groups of NDJSON envelopes.
    package let grouping: GroupingRules?

    package init(filter: FleetFilter, jobs: Int, grouping: GroupingRules? = nil) {
        aggregator = FleetAggregator(filter: filter)
        self.jobs = jobs
        self.grouping = grouping
    }

    package func take(_ item: Item) {
        lock.withLock {
            switch item {
            case .scanned(let result):
                for record in result.records {
                    if let event = record.fleet { aggregator.add(event) }
                    if let failure = record.failure, errors.count < 1000 { errors.append(failure) }
                }
                for finding in result.diagnostics { aggregator.note(finding) }
            case .ndjson(let raw):
                readNDJSON(raw)
            }
        }
    }

    private func readNDJSON(_ raw: RawPath) {
        let display = raw.display
        let outcome = raw.withOpenablePath { path -> InputError? in
            do {
                var reader = NDJSONReader()
                reader.grouping = grouping
                try reader.read(path: path, jobs: jobs) { line in
                    switch line {
                    case .event(let event):
                        aggregator.add(event, fromNDJSON: true)
                    case .findings(let findings):
                        for finding in findings { aggregator.note(finding) }
                    case .rejected(let diagnostic):
                        let message = ErrorLine.render(
                            path: display,
                            location: diagnostic.location,
                            message: diagnostic.message
                        )
                        aggregator.note(
                            FleetFinding(file: display, diagnostic: diagnostic),
                            line: message,
                            rejectedLine: true
                        )
                        if errors.count < 1000 { errors.append(message) }
                    }
                    return true
                }
                return nil
            } catch let error as InputError {
                return error
            } catch {
                return InputError(.unreadable, "\(error)")
            }
        }
        let failure: String? =
            switch outcome {
            case .success(let error): error.map { $0.message }
            case .failure(let failure): failure.message
            }
        if let failure {
            aggregator.add(
                FleetEvent(file: display, kind: FileKind.unknown.rawValue, unreadable: true, failure: failure)
            )
            errors.append(ErrorLine.render(path: display, location: nil, message: failure))
        }
    }

    package func summary() -> FleetSummary {
        lock.withLock { aggregator.summary() }
    }

    /// A regular file whose first bytes are an envelope of `scan --format ndjson`.
    package static func isNDJSON(_ raw: RawPath) -> Bool {
        let result = raw.withOpenablePath { path -> Bool in
            guard FileReading.isRegularFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
                return false
            }
            defer { try? handle.close() }
            let prefix = (try? handle.read(upToCount: 64)) ?? Data()
            return FleetEnvelope.looksLikeNDJSON(prefix: [UInt8](prefix))
        }
        return (try? result.get()) ?? false
    }
}
