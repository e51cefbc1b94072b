/// JetsamEvents shaped as iOS 17 writes them (an IPS header line over a pretty-printed body), built from a few
/// process entries so that a test states who was killed and who was on screen.
public enum JetsamFixture {
    /// One `processes[]` entry.
    public struct Entry: Sendable {
        public var name: String
        public var states: [String]
        /// The kill reason (`per-process-limit`, `vm-pageshortage`); nil for a process left running.
        public var reason: String?
        public var pid: Int
        public var rpages: Int
        public var priority: Int
        /// The main binary's LC_UUID as JetsamEvents write it (with dashes); nil leaves the key out.
        public var uuid: String?

        public init(
            _ name: String,
            states: [String],
            reason: String? = nil,
            pid: Int = 500,
            rpages: Int = 4_000,
            priority: Int = 10,
            uuid: String? = nil
        ) {
            self.name = name
            self.uuid = uuid
            self.states = states
            self.reason = reason
            self.pid = pid
            self.rpages = rpages
            self.priority = priority
        }

        /// An app on screen: `frontmost` and `resume`, the foreground band.
        public static func frontmostApp(_ name: String, reason: String? = nil) -> Entry {
            Entry(name, states: ["frontmost", "resume"], reason: reason, pid: 812, rpages: 90_000, priority: 100)
        }

        /// A daemon in the idle band, as `financed` was in a real iOS 27 kill.
        public static func idleDaemon(_ name: String, reason: String? = nil) -> Entry {
            Entry(name, states: ["daemon", "idle"], reason: reason, pid: 441, rpages: 804, priority: 0)
        }
    }

    /// The report's bytes; `incident` tells copies apart (the fleet report counts one event per incident id),
    /// `product` is the device model and `date` the UTC time (`2024-03-01 18:00:00`).
    public static func report(
        _ entries: [Entry],
        incident: String = "5B1F3C2A-7D44-4E0B-9A61-2C8E4F7D9B10",
        product: String = "iPhone15,3",
        date: String = "2024-03-01 18:00:00"
    ) -> [UInt8] {
        let largest = entries.max { $0.rpages < $1.rpages }?.name ?? ""
        let processes = entries.map { entry in
            let states = entry.states.map { "\"\($0)\"" }.joined(separator: ", ")
            let reason = entry.reason.map { "\n    \"reason\" : \"\($0)\"," } ?? ""
            let uuid = entry.uuid.map { "\n    \"uuid\" : \"\($0)\"," } ?? ""
            return """
                  {\(uuid)
                    "pid" : \(entry.pid),
                    "name" : "\(entry.name)",
                    "states" : [\(states)],\(reason)
                    "priority" : \(entry.priority),
                    "rpages" : \(entry.rpages),
                    "lifetimeMax" : \(entry.rpages)
                  }
                """
        }
        let text = """
            {"bug_type":"298","timestamp":"\(date).00 +0000","os_version":"iPhone OS 17.3 (21D50)",\
            "incident_id":"\(incident)"}
            {
              "product" : "\(product)",
              "incident" : "\(incident)",
              "date" : "\(date).12 +0000",
              "build" : "iPhone OS 17.3 (21D50)",
              "kernel" : "Darwin Kernel Version 23.3.0: root:xnu-10002.82.4~3/RELEASE_ARM64_T8120",
              "memoryStatus" : { "pageSize" : 16384 },
              "largestProcess" : "\(largest)",
              "processes" : [
            \(processes.joined(separator: ",\n"))
              ]
            }

            """
        return Array(text.utf8)
    }
}
