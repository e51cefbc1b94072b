/// A `bug_type` from an `.ips` header, with the report family it stands for.
///
/// The registry is Apple's OSAnalytics log-type table, generated into `BugType+Table.swift` by
/// `Scripts/generate-bug-types.py`. A `bug_type` only suggests a family: parsers still
/// check the content, since a 309 header can sit on a text body and 211 files can look like JetsamEvents.
package struct BugType: Sendable, Equatable, Hashable, Codable {
    /// What a report of this type is.
    package enum Family: String, Sendable, Equatable, Hashable, Codable {
        case jetsam
        case crash
        case excResource
        case panic
        case stackshot
        case analytics
        case systemWatchdog
        case hang
        case fault
        case watchdogTimeout
        /// A system memory reset (301) or reset count: the whole device, not one process.
        case memoryReset
        /// App launch diagnostics (238).
        case launch
        /// Symptoms framework reports: excessive I/O (145) and CPU use (202, 206).
        case symptoms
        /// Periodic CPU, I/O and power microstackshots.
        case microstackshot
        /// GPU restarts and events.
        case gpu
        case other
    }

    package var code: String
    package var name: String
    package var family: Family

    package init(code: String, name: String, family: Family) {
        self.code = code
        self.name = name
        self.family = family
    }

    /// The registry entry for `code`, or an `other` entry naming the unknown code.
    package static func lookup(_ code: String) -> BugType {
        let trimmed = code.trimmingASCIIWhitespace()
        if let entry = registry[trimmed] { return entry }
        return BugType(code: trimmed, name: "Unknown", family: .other)
    }

    /// True when the code is in the registry.
    package static func isKnown(_ code: String) -> Bool { registry[code.trimmingASCIIWhitespace()] != nil }

    /// True when the body of a report of this type is shaped like a crash report (a `.crash`-style text body or
    /// the 309 JSON body: exception, threads, binary images), so the crash reader can read it: OS faults, system
    /// watchdog crashes, terminating stackshots and run-loop hangs, besides crashes and resource reports.
    package var hasCrashShapedBody: Bool {
        switch family {
        case .crash, .excResource, .fault, .systemWatchdog: true
        default: Self.crashShapedCodes.contains(code)
        }
    }

    /// The stackshot and hang types whose body can be a crash-shaped report: the terminating stackshot and the
    /// run-loop and third-party hangs (the legacy macOS `.hang` is spindump text).
    private static let crashShapedCodes: Set<String> = ["509", "222", "223", "228", "310"]

    /// The `bug_type`s of Apple's OSAnalytics log-type table, by code (``table``, generated from the table).
    ///
    /// Every type a user may meet in a report folder or a sysdiagnose; names are the table's own.
    private static let registry: [String: BugType] = {
        var registry: [String: BugType] = [:]
        for entry in table {
            registry[entry.code] = BugType(code: entry.code, name: entry.name, family: entry.family)
        }
        return registry
    }()

    /// The codes the table enables (a disabled type is one Apple no longer submits, still named when met).
    package static let enabledCodes: Set<String> = Set(table.lazy.filter(\.isEnabled).map(\.code))

    /// Every code of the table, enabled or not.
    package static let knownCodes: Set<String> = Set(registry.keys)

    /// What to say of a header whose `bug_type` is not in the table: its number is kept and shown, with the name
    /// "Unknown".
    package static func unknownCodeNote(_ code: String) -> String {
        "bug_type \(code.trimmingASCIIWhitespace()) is not in Apple's OSAnalytics log-type table as this build "
            + "knows it; its number is kept and the report is read by its content"
    }
}
