extension HTTPSummary {
    /// The time transactions cover, from the earliest start to the latest end.
    struct Span {
        private var first = Double.infinity
        private var last = -Double.infinity

        /// Widens the span to `transaction` when its start is known; its end is the later of the response end and
        /// the total time.
        mutating func add(_ transaction: HTTPTransaction) {
            guard transaction.startEpochSeconds >= 0 else { return }
            let start = transaction.startEpochSeconds * 1000
            first = Swift.min(first, start)
            let end = Swift.max(0, transaction.phases.responseEnd, transaction.durations.total)
            last = Swift.max(last, start + end)
        }

        /// In ms; -1 when no transaction had a known start.
        var milliseconds: Double { last >= first ? last - first : -1 }
    }
}
