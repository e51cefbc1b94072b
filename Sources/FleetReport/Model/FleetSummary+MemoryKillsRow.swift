import MetricKitParsing

extension FleetSummary {
    /// MetricKit's memory kills for one app version: exits at the memory limit (the OS's jetsam of the app, as the
    /// app saw it) and memory-exception diagnostics, labelled by source so they are not mistaken for JetsamEvents.
    package struct MemoryKillsRow: Sendable, Equatable, Encodable {
        package var version: String
        /// Always `metrickit`: JetsamEvents are counted in ``OOM/events`` and ``OOM/byDevice``.
        package var source: String
        /// `foregroundExitData.cumulativeMemoryResourceLimitExitCount`.
        package var foregroundMemoryLimitExits: Int64
        /// `backgroundExitData.cumulativeMemoryResourceLimitExitCount`.
        package var backgroundMemoryLimitExits: Int64
        /// `memoryExceptionDiagnostics`.
        package var memoryExceptionDiagnostics: Int

        /// Nil when the version has no memory-limit exit and no memory exception.
        package init?(metricKit row: MetricKitFleetSummary.Row) {
            version = row.name
            source = "metrickit"
            foregroundMemoryLimitExits = row.exits["foreground.memoryResourceLimit"] ?? 0
            backgroundMemoryLimitExits = row.exits["background.memoryResourceLimit"] ?? 0
            memoryExceptionDiagnostics = row.diagnostics[MetricKitDiagnostic.Kind.memoryException.rawValue] ?? 0
            if foregroundMemoryLimitExits == 0, backgroundMemoryLimitExits == 0, memoryExceptionDiagnostics == 0 {
                return nil
            }
        }
    }
}
