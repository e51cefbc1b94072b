import APMInspectCore
import Foundation
import JetsamParsing
import ReportSources

/// Folds the results of a scan into its inventory one at a time, in input order, as the workers hand them over.
///
/// Keeping every record until the end cost about 1 KB per report (131 MB at 100,000 files); the fold keeps
/// aggregates instead: a count and the first three examples per crash signature, counts per kind, the memory-limit
/// table. Only what the output lists file by file (watchdog kills, unreadable files, PowerLogs, archive findings)
/// grows with those files. Results must come in input order, as the executable's `ParallelMap.forEachInOrder` hands
/// them, so groups, examples and lists come out as when the inventory was built from all records at once.
package final class ScanInventoryFold: @unchecked Sendable {
    private let lock = NSLock()
    private var inventory = ScanInventory()
    private var groups: [String: ScanInventory.CrashGroup] = [:]
    /// Signatures in the order they were first met: the tie order of groups with the same count.
    private var order: [String] = []
    private var table = MemoryLimitTable(options: .init(includeBeta: true, includeModifiedKernels: true))

    package init() {}

    /// Adds the records and archive findings of one input, the next in input order.
    package func add(records: [ScanRecord], findings: [String]) {
        lock.lock()
        defer { lock.unlock() }
        for record in records { add(record) }
        inventory.archiveFindings += findings
    }

    /// The inventory of everything added so far, for a scan of `files` inputs.
    package func inventory(files: Int) -> ScanInventory {
        lock.lock()
        defer { lock.unlock() }
        var result = inventory
        result.files = files
        result.crashGroups = order.compactMap { groups[$0] }.sorted { $0.count > $1.count }
        result.memoryLimits = table.rows
        return result
    }

    private func add(_ record: ScanRecord) {
        inventory.reports += 1
        inventory.kinds[record.kind.rawValue, default: 0] += 1
        if let failure = record.failure {
            inventory.unreadable.append(ScanInventory.Unreadable(file: record.path, reason: failure))
        }
        if let crash = record.crash {
            if var group = groups[crash.signature] {
                group.count += 1
                if group.examples.count < 3 { group.examples.append(record.path) }
                groups[crash.signature] = group
            } else {
                order.append(crash.signature)
                groups[crash.signature] = ScanInventory.CrashGroup(
                    signature: crash.signature,
                    count: 1,
                    process: crash.process,
                    exception: crash.exception,
                    topFrame: crash.topFrame,
                    examples: [record.path]
                )
            }
        }
        if let watchdog = record.watchdog {
            inventory.watchdogKills.append(
                ScanInventory.WatchdogKill(
                    file: record.path,
                    process: watchdog.process,
                    summary: watchdog.summary,
                    mainThread: watchdog.verdict
                )
            )
        }
        if !record.energyTopApps.isEmpty { inventory.energy[record.path] = record.energyTopApps }
        if let evidence = record.jetsam {
            // A copy of an incident already counted (`.ips` and `.ips.synced`) adds no kills, as in `memory-limits`.
            if !table.hasSeen(evidence) {
                inventory.oomKills += record.jetsamKills
                inventory.oomEvents += 1
            }
            table.add(evidence)
        }
    }
}
