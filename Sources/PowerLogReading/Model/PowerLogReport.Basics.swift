import APMInspectCore

extension PowerLogReport {
    /// One file that was read.
    public struct Source: Sendable, Equatable, Codable {
        public var path: String
        /// `sqlite`, or `gzip` for a compressed copy read through a temporary file.
        public var format: String
        public var tableCount: Int
        /// True when `-wal` / `-shm` siblings were read with the database.
        public var withWriteAheadLog: Bool

        package init(path: String, format: String, tableCount: Int, withWriteAheadLog: Bool) {
            self.path = path
            self.format = format
            self.tableCount = tableCount
            self.withWriteAheadLog = withWriteAheadLog
        }
    }

    /// A span of time.
    public struct TimeRange: Sendable, Equatable, Codable {
        public var start: PowerLogTime
        public var end: PowerLogTime

        package init(start: PowerLogTime, end: PowerLogTime) {
            self.start = start
            self.end = end
        }

        /// Wall-clock seconds from start to end.
        public var seconds: Double { end.utcSeconds - start.utcSeconds }
    }

    /// A row of `PLStorageOperator_EventForward_TimeOffset`: from ``at`` on, UTC = raw + ``systemSeconds``.
    public struct TimeOffset: Sendable, Equatable, Hashable, Codable {
        public var at: PowerLogTime
        public var systemSeconds: Double

        package init(at: PowerLogTime, systemSeconds: Double) {
            self.at = at
            self.systemSeconds = systemSeconds
        }
    }

    /// A table and how many rows it holds (summed over the sources, before duplicates are removed).
    public struct Table: Sendable, Equatable, Codable {
        public var name: String
        /// The entry type from the name (`EventForward`, `Aggregate` …), nil for tables outside the naming scheme.
        public var entryType: String?
        public var rows: Int64

        package init(name: String, entryType: String?, rows: Int64) {
            self.name = name
            self.entryType = entryType
            self.rows = rows
        }
    }
}
