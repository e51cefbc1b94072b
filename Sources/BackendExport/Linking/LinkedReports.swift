import APMInspectCore

/// The other reports of the crash an exported event stands for: `scan` links the copies one crash arrives as (a
/// KSCrash report, a MetricKit diagnostic, Apple's `.ips`) and exports the richest only, so the event says which
/// reports it replaces and a backend user can still find them.
package struct LinkedReports: Sendable, Equatable {
    /// One report left out in favour of the exported one.
    package struct Report: Sendable, Equatable {
        /// The kind of file: `crashReport`, `kscrash`, `metrickit`.
        package var source: String
        /// The path as the run was given it (an archive member as `archive:member`).
        package var file: String
        /// The id the report's event has when it is exported on its own: what a backend that received it earlier
        /// knows it by.
        package var eventID: EventIdentity?

        package init(source: String, file: String, eventID: EventIdentity?) {
            self.source = source
            self.file = file
            self.eventID = eventID
        }
    }

    /// The first ``maxReports`` of them.
    package private(set) var reports: [Report] = []
    /// How many there are.
    package private(set) var count = 0
    /// Their sources, each once, in byte order.
    package private(set) var sources: [String] = []

    /// Reports named on one event at most, as a hostile folder of copies of one incident would otherwise make one
    /// event as large as the folder (``count`` still says how many there were).
    package static let maxReports = 32

    package init(_ all: some Sequence<Report>) {
        var seen: Set<String> = []
        for report in all {
            count += 1
            if reports.count < Self.maxReports { reports.append(report) }
            if seen.insert(report.source).inserted { sources.append(report.source) }
        }
        sources.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The sources comma-separated: the tag and attribute value.
    package var sourcesText: String { sources.joined(separator: ",") }

    /// A JSON object with `key` set to `value` (appended when absent); a value that is not an object becomes one.
    static func setting(_ key: String, to value: JSONValue, in object: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return .object([JSONValue.Member(key: key, value: value)]) }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONValue.Member(key: key, value: value))
        }
        return .object(members)
    }
}
