/// A jetsam kill cause: the `reason` string of a killed process, with its kernel code and meaning.
///
/// The strings match xnu's `memorystatus_kill_cause_name[]`. Two codes were renamed (5: `vm-thrashing` →
/// `proc-thrashing` in iOS 12, 8: `diagnostic` → `disk-space-shortage`); both spellings are known. Unknown strings
/// are kept as they are, with no meaning attached.
package struct KillReason: Sendable, Equatable, Hashable, Codable {
    /// The string as written in the report.
    package var name: String
    /// The kernel's cause number, when known.
    package var code: Int?
    /// What the cause means, in plain words.
    package var meaning: String
    /// True only for `per-process-limit`: the process crossed its own hard limit, so its footprint is its limit.
    package var revealsLimit: Bool
    /// True when the string is not in the table (a newer OS, or a typo in a pasted report).
    package var isUnknown: Bool

    package init(name: String, code: Int?, meaning: String, revealsLimit: Bool, isUnknown: Bool) {
        self.name = name
        self.code = code
        self.meaning = meaning
        self.revealsLimit = revealsLimit
        self.isUnknown = isUnknown
    }

    /// The table entry for `name`, or an unknown entry that keeps it.
    package init(_ name: String) {
        if let known = Self.table[name] {
            self = known
        } else {
            self.init(
                name: name,
                code: nil,
                meaning: "not a known jetsam cause",
                revealsLimit: false,
                isUnknown: true
            )
        }
    }

    /// `per-process-limit`.
    package static let perProcessLimit = "per-process-limit"

    /// Every known cause, by string.
    package static let table: [String: KillReason] = {
        let rows: [(String, Int, String)] = [
            ("jettisoned", 1, "killed for some other reason (generic jettison)"),
            ("highwater", 2, "over its soft (high-water) limit while memory was low"),
            ("vnode-limit", 3, "the system ran out of vnodes (too many files open across the system)"),
            ("vm-pageshortage", 4, "the system ran out of free pages; processes are killed from the lowest band up"),
            ("vm-thrashing", 5, "VM/compressor thrashing (iOS 8–11 name of cause 5)"),
            ("proc-thrashing", 5, "aggressive jetsam of relaunching idle daemons (iOS 12+ name of cause 5)"),
            ("fc-thrashing", 6, "file-cache thrashing"),
            (perProcessLimit, 7, "crossed its own hard memory limit (the footprint is the limit)"),
            ("diagnostic", 8, "killed for diagnostics (iOS 8–11 name of cause 8)"),
            ("disk-space-shortage", 8, "storage nearly full; frozen processes were killed (iOS 12+ name of cause 8)"),
            ("idle-exit", 9, "idle daemon exited under memory pressure"),
            ("zone-map-exhaustion", 10, "the kernel's zone map ran out of address space"),
            ("vm-compressor-thrashing", 11, "the memory compressor was thrashing"),
            ("vm-compressor-space-shortage", 12, "the memory compressor was near its segment or page limits"),
            ("low-swap", 13, "out of swap on an app-swap device"),
            ("sustained-memory-pressure", 14, "memory pressure lasted ten minutes or more; idle processes were killed"),
            ("vm-pageout-starvation", 15, "the pageout thread was starved"),
            ("conclave-limit", 16, "over a conclave limit (reserved cause, iOS 18.4+)"),
            ("long-idle-exit", 17, "a long-idle process was reaped"),
        ]
        var table: [String: KillReason] = [:]
        for (name, code, meaning) in rows {
            table[name] = KillReason(
                name: name,
                code: code,
                meaning: meaning,
                revealsLimit: name == perProcessLimit,
                isUnknown: false
            )
        }
        return table
    }()
}
