import APMInspectCore
import JetsamParsing

/// The summary `scan` prints: what was found, grouped the way people triage it (built by ``ScanInventoryFold``).
package struct ScanInventory: Encodable {
    package struct CrashGroup: Encodable {
        package var signature: String
        package var count: Int
        package var process: String
        package var exception: String
        package var topFrame: String?
        package var examples: [String]

        package init(
            signature: String,
            count: Int,
            process: String,
            exception: String,
            topFrame: String?,
            examples: [String]
        ) {
            self.signature = signature
            self.count = count
            self.process = process
            self.exception = exception
            self.topFrame = topFrame
            self.examples = examples
        }
    }

    package struct WatchdogKill: Encodable {
        package var file: String
        package var process: String
        package var summary: String
        package var mainThread: String?

        package init(file: String, process: String, summary: String, mainThread: String?) {
            self.file = file
            self.process = process
            self.summary = summary
            self.mainThread = mainThread
        }
    }

    package struct Unreadable: Encodable {
        package var file: String
        package var reason: String

        package init(file: String, reason: String) {
            self.file = file
            self.reason = reason
        }
    }

    package var files = 0
    package var reports = 0
    package var kinds: [String: Int] = [:]
    package var crashGroups: [CrashGroup] = []
    package var watchdogKills: [WatchdogKill] = []
    package var oomKills = 0
    /// Distinct JetsamEvents: copies of one incident (`.ips` and `.ips.synced`) count once, as their kills do.
    package var oomEvents = 0
    /// For each PowerLog found: its file and the apps that used the most energy, with their share.
    package var energy: [String: [String]] = [:]
    package var memoryLimits: [MemoryLimitRow] = []
    package var archiveFindings: [String] = []
    package var unreadable: [Unreadable] = []
    /// Reports `--app` left out (none are counted above); absent without `--app`.
    package var leftOutByApp: Int?

    package init() {}
}
