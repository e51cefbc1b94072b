import APMInspectCore

extension CrashReport {
    /// A main-thread hang a crash reporter saw: when it began and ended, and whether the app came back from it.
    ///
    /// KSCrash writes a report of type `hang` only for a hang that ended (the app recovered); a hang that never
    /// ended becomes the watchdog kill's report, which carries the same block.
    public struct Hang: Sendable, Equatable, Codable {
        /// The hang's length in seconds, from the start and end times; nil when either is missing, or when the
        /// end is before the start.
        package var durationSeconds: Double?
        /// True when the app came back (the report is the hang itself), false when it was killed while hanging.
        package var recovered: Bool
        /// The start and end on the writer's monotonic clock, in nanoseconds, as written.
        package var startNanoseconds: UInt64?
        package var endNanoseconds: UInt64?
        /// The app's role at the start and end (`FOREGROUND_APPLICATION` …).
        package var startRole: String?
        package var endRole: String?

        package init(
            durationSeconds: Double? = nil,
            recovered: Bool,
            startNanoseconds: UInt64? = nil,
            endNanoseconds: UInt64? = nil,
            startRole: String? = nil,
            endRole: String? = nil
        ) {
            self.durationSeconds = durationSeconds
            self.recovered = recovered
            self.startNanoseconds = startNanoseconds
            self.endNanoseconds = endNanoseconds
            self.startRole = startRole
            self.endRole = endRole
        }

        /// The seconds between two monotonic times in nanoseconds; nil when either is missing or the end is first.
        package static func seconds(from start: UInt64?, to end: UInt64?) -> Double? {
            guard let start, let end, end >= start else { return nil }
            return Double(end - start) / 1_000_000_000
        }
    }
}

// Written directly with the report's top level.
extension CrashReport.Hang: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("durationSeconds", durationSeconds)
        object.write("endNanoseconds", endNanoseconds)
        object.write("endRole", endRole)
        object.write("recovered", recovered)
        object.write("startNanoseconds", startNanoseconds)
        object.write("startRole", startRole)
    }
}
