import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import JetsamParsing
import ReportInspection
import ReportRendering
import ReportSources
import Testing

@testable import apm_inspect

/// `scan` folds each result into the inventory as the workers hand it over, instead of keeping every record until
/// the end (issue 21): the inventory must be the one the all-records build gave, whatever the threads do.
@Suite struct ScanInventoryFoldTests {
    /// The records of every file of three corpus folders, repeated so signatures tie and examples fill up.
    static func records() throws -> [ScanRecord] {
        let inspector = ReportInspector()
        var once: [ScanRecord] = []
        for folder in ["Corpus/crash", "Corpus/watchdog", "Corpus/jetsam"] {
            let url = FuzzReplayInputs.root.appendingPathComponent(folder)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            for name in names where !name.hasPrefix(".") {
                let path = url.appendingPathComponent(name).path
                guard FileReading.isRegularFile(atPath: path) else { continue }
                once.append(ScanRecord(inspector.inspect(path: path)))
            }
        }
        // Each round starts elsewhere, so the first example of a group and the tie order depend on input order.
        var all: [ScanRecord] = []
        for round in 0..<5 {
            let start = round * 7 % max(1, once.count)
            all += once[start...] + once[..<start]
        }
        return all
    }

    /// The inventory as `scan` built it before the fold: from all records at once, in input order.
    static func allRecordsInventory(_ records: [ScanRecord], files: Int, findings: [String]) -> ScanInventory {
        var inventory = ScanInventory()
        inventory.files = files
        inventory.archiveFindings = findings
        var groups: [String: ScanInventory.CrashGroup] = [:]
        var order: [String] = []
        var table = MemoryLimitTable(options: .init(includeBeta: true, includeModifiedKernels: true))
        for record in records {
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
                // The first copy of an incident counts its kills (the rounds above repeat every report).
                if !table.hasSeen(evidence) {
                    inventory.oomKills += record.jetsamKills
                    inventory.oomEvents += 1
                }
                table.add(evidence)
            }
        }
        inventory.crashGroups = order.compactMap { groups[$0] }.sorted { $0.count > $1.count }
        inventory.memoryLimits = table.rows
        return inventory
    }

    /// The records cut into results of zero to three records (an archive gives several, a failed read one), each
    /// with a finding every fifth input.
    static func results(_ records: [ScanRecord]) -> [ReportScanner.Result] {
        var results: [ReportScanner.Result] = []
        var start = 0
        while start < records.count {
            let size = min(results.count % 4, records.count - start)
            let finding = Diagnostic(.warning, .archiveTruncated, "a finding")
            let findings =
                results.count % 5 == 0 ? [FleetFinding(file: "archive-\(results.count)", diagnostic: finding)] : []
            let slice = Array(records[start..<start + size])
            results.append(ReportScanner.Result(records: slice, diagnostics: findings))
            start += size
        }
        return results
    }

    @Test("the fold through two workers and a small reorder window gives the all-records inventory")
    func foldMatchesAllRecords() throws {
        let records = try Self.records()
        #expect(records.count > 100)
        let results = Self.results(records)
        let expected = Self.allRecordsInventory(
            results.flatMap(\.records),
            files: results.count,
            findings: results.flatMap(\.findings)
        )
        #expect(expected.crashGroups.contains { $0.count > 3 && $0.examples.count == 3 })
        #expect(!expected.watchdogKills.isEmpty && !expected.memoryLimits.isEmpty)
        for window in [1, 3, 64] {
            let fold = ScanInventoryFold()
            let consumed = ParallelMap.forEachInOrder(
                count: results.count,
                jobs: 2,
                window: window,
                transform: { results[$0] },
                consume: { result in
                    fold.add(records: result.records, findings: result.findings)
                    return true
                }
            )
            #expect(consumed == results.count)
            let folded = fold.inventory(files: results.count)
            #expect(try JSONOutput.encode(folded, pretty: true) == JSONOutput.encode(expected, pretty: true))
            #expect(ScanRenderer.render(folded) == ScanRenderer.render(expected))
        }
    }
}
