import APMInspectCore
import JetsamParsing

/// The summary `scan` prints: what was found, grouped the way people triage it.
struct ScanInventory: Encodable {
    struct CrashGroup: Encodable {
        var signature: String
        var count: Int
        var process: String
        var exception: String
        var topFrame: String?
        var examples: [String]
    }

    struct WatchdogKill: Encodable {
        var file: String
        var process: String
        var summary: String
        var mainThread: String?
    }

    struct Unreadable: Encodable {
        var file: String
        var reason: String
    }

    var files = 0
    var reports = 0
    var kinds: [String: Int] = [:]
    var crashGroups: [CrashGroup] = []
    var watchdogKills: [WatchdogKill] = []
    var oomKills = 0
    /// For each PowerLog found: its file and the apps that used the most energy, with their share.
    var energy: [String: [String]] = [:]
    var memoryLimits: [MemoryLimitRow] = []
    var archiveFindings: [String] = []
    var unreadable: [Unreadable] = []

    /// Builds the inventory from every record, in input order.
    init(records: [ScanRecord], files: Int, archiveFindings: [String]) {
        self.files = files
        self.archiveFindings = archiveFindings
        var groups: [String: CrashGroup] = [:]
        var order: [String] = []
        var table = MemoryLimitTable(options: .init(includeBeta: true, includeModifiedKernels: true))
        for record in records {
            reports += 1
            kinds[record.kind.rawValue, default: 0] += 1
            if let failure = record.failure { unreadable.append(Unreadable(file: record.path, reason: failure)) }
            if let crash = record.crash {
                if var group = groups[crash.signature] {
                    group.count += 1
                    if group.examples.count < 3 { group.examples.append(record.path) }
                    groups[crash.signature] = group
                } else {
                    order.append(crash.signature)
                    groups[crash.signature] = CrashGroup(
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
                watchdogKills.append(
                    WatchdogKill(
                        file: record.path,
                        process: watchdog.process,
                        summary: watchdog.summary,
                        mainThread: watchdog.verdict
                    )
                )
            }
            if !record.energyTopApps.isEmpty { energy[record.path] = record.energyTopApps }
            if let evidence = record.jetsam {
                oomKills += record.jetsamKills
                table.add(evidence)
            }
        }
        crashGroups = order.compactMap { groups[$0] }.sorted { $0.count > $1.count }
        memoryLimits = table.rows
    }
}
