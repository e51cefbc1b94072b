/// The bounds of a summary read (``PowerLogReader/readSummary(path:limits:)``): what the text views keep of a
/// history of any size.
///
/// Rows are folded into aggregates as SQLite yields them and dropped, so memory does not grow with the row count.
/// Below these bounds a summary equals the full report (the same rankings, totals, sessions and exits); a bound
/// that is reached is named in a warning, with what was left out.
package struct PowerLogSummaryLimits: Sendable, Equatable {
    /// The most distinct names ranked per table (consumers, apps, coalitions, background location): the first
    /// names seen are ranked exactly; rows of later names count in the totals only (a warning says how many).
    package var maxNames: Int
    /// The most energy buckets (one per table row's start and length) kept for the time series.
    package var maxBuckets: Int
    /// The most (bucket, consumer) sums kept across all buckets; further consumers of a bucket count in its total.
    package var maxBucketEntries: Int
    /// The most recent process exits and battery sessions listed (all are counted).
    package var keptRecent: Int
    /// The most battery samples and screen changes kept for the plot (evenly thinned; all are used in the figures).
    package var keptSamples: Int
    /// The most screen on/off transitions remembered to bill battery drain to the screen state.
    package var maxScreenTransitions: Int
    /// The most daily energy rows (kept until the hourly rows say which days they cover).
    package var maxDailyRows: Int

    package init(
        maxNames: Int = 10_000,
        maxBuckets: Int = 100_000,
        maxBucketEntries: Int = 500_000,
        keptRecent: Int = 1000,
        keptSamples: Int = 4096,
        maxScreenTransitions: Int = 1_000_000,
        maxDailyRows: Int = 10_000
    ) {
        self.maxNames = maxNames
        self.maxBuckets = maxBuckets
        self.maxBucketEntries = maxBucketEntries
        self.keptRecent = keptRecent
        self.keptSamples = keptSamples
        self.maxScreenTransitions = maxScreenTransitions
        self.maxDailyRows = maxDailyRows
    }
}
