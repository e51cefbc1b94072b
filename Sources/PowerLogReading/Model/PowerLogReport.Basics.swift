import APMInspectCore

extension PowerLogReport {
    /// One file that was read.
    package struct Source: Sendable, Equatable, Codable {
        package var path: String
        /// `sqlite`, or `gzip` for a compressed copy read through a temporary file.
        package var format: String
        package var tableCount: Int
        /// True when `-wal` / `-shm` siblings were read with the database.
        package var withWriteAheadLog: Bool

        package init(path: String, format: String, tableCount: Int, withWriteAheadLog: Bool) {
            self.path = path
            self.format = format
            self.tableCount = tableCount
            self.withWriteAheadLog = withWriteAheadLog
        }
    }

    /// A span of time.
    package struct TimeRange: Sendable, Equatable, Codable {
        package var start: PowerLogTime
        package var end: PowerLogTime

        package init(start: PowerLogTime, end: PowerLogTime) {
            self.start = start
            self.end = end
        }

        /// Wall-clock seconds from start to end.
        package var seconds: Double { end.utcSeconds - start.utcSeconds }
    }

    /// A row of `PLStorageOperator_EventForward_TimeOffset`: from ``at`` on, UTC = raw + ``systemSeconds``.
    package struct TimeOffset: Sendable, Equatable, Hashable, Codable {
        package var at: PowerLogTime
        package var systemSeconds: Double

        package init(at: PowerLogTime, systemSeconds: Double) {
            self.at = at
            self.systemSeconds = systemSeconds
        }
    }

    /// A table and how many rows it holds (summed over the sources, before duplicates are removed).
    package struct Table: Sendable, Equatable, Codable {
        package var name: String
        /// The entry type from the name (`EventForward`, `Aggregate` …), nil for tables outside the naming scheme.
        package var entryType: String?
        package var rows: Int64

        package init(name: String, entryType: String?, rows: Int64) {
            self.name = name
            self.entryType = entryType
            self.rows = rows
        }
    }
}
