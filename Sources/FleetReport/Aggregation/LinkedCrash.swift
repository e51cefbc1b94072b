/// One crash of a fleet as the crash ledger linked it: the reports it arrived as, the richest first.
package struct LinkedCrash: Sendable {
    package struct Report: Sendable {
        /// The order the report was added to the ledger in.
        package var index: Int
        /// The crash as added, its link facts left out.
        package var crash: FleetEvent.Crash
        package var file: String
        /// True when its time is a range (a MetricKit payload's), not an instant.
        package var isRanged: Bool
    }

    /// The group key of the richest report: its grouping rule's signature, else its own.
    package var key: String
    package var reports: [Report]
}
