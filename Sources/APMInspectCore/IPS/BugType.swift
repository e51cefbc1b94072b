/// A `bug_type` from an `.ips` header, with the report family it stands for.
///
/// The registry follows Apple's OSAnalytics log-type table. A `bug_type` only suggests a family: parsers still
/// check the content, since a 309 header can sit on a text body and 211 files can look like JetsamEvents.
public struct BugType: Sendable, Equatable, Hashable, Codable {
    /// What a report of this type is.
    public enum Family: String, Sendable, Equatable, Hashable, Codable {
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
        case other
    }

    public var code: String
    public var name: String
    public var family: Family

    public init(code: String, name: String, family: Family) {
        self.code = code
        self.name = name
        self.family = family
    }

    /// The registry entry for `code`, or an `other` entry naming the unknown code.
    public static func lookup(_ code: String) -> BugType {
        let trimmed = code.trimmingASCIIWhitespace()
        if let entry = registry[trimmed] { return entry }
        return BugType(code: trimmed, name: "Unknown", family: .other)
    }

    /// True when the code is in the registry.
    public static func isKnown(_ code: String) -> Bool { registry[code.trimmingASCIIWhitespace()] != nil }

    private static let registry: [String: BugType] = {
        let entries: [(String, String, Family)] = [
            ("9", "Crash", .crash),
            ("109", "Crash", .crash),
            ("309", "Crash", .crash),
            ("22", "ExcResource", .excResource),
            ("185", "ExcResource", .excResource),
            ("385", "ExcResource", .excResource),
            ("227", "ExcResourceThreads", .excResource),
            ("327", "ExcResourceThreads", .excResource),
            ("188", "LegacyStackshot", .stackshot),
            ("288", "Stackshot", .stackshot),
            ("509", "TerminatingStackshot", .stackshot),
            ("98", "Jetsam", .jetsam),
            ("198", "LegacyJetsam", .jetsam),
            ("298", "Jetsam", .jetsam),
            ("110", "Panic", .panic),
            ("210", "Panic", .panic),
            ("151", "ForceReset", .panic),
            ("211", "CoreAnalytics", .analytics),
            ("409", "SystemWatchdogCrash", .systemWatchdog),
            ("308", "OSFault", .fault),
            ("222", "LongRunloopHang", .hang),
            ("223", "ShortRunloopHang", .hang),
            ("228", "ThirdPartyHang", .hang),
            ("310", "MicroRunloopHang", .hang),
            ("28", "WatchdogTimeout", .watchdogTimeout),
            ("29", "ServiceWatchdogTimeout", .watchdogTimeout),
        ]
        var table: [String: BugType] = [:]
        for (code, name, family) in entries { table[code] = BugType(code: code, name: name, family: family) }
        return table
    }()
}
