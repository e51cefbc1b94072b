import APMInspectCore
import JetsamParsing

/// The summary `scan` prints: what was found, grouped the way people triage it (built by ``ScanInventoryFold``).
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
    /// Reports `--app` left out (none are counted above); absent without `--app`.
    var leftOutByApp: Int?
}
