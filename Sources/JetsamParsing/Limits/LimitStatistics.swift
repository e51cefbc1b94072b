/// Minimum, median and maximum of a set of limits in MB, with how many values they summarise.
public struct LimitStatistics: Sendable, Equatable, Codable {
    /// The lowest limit seen, in MB.
    public var min: UInt64
    /// The middle value; the mean of the two middle values for an even count.
    public var median: Double
    /// The highest limit seen, in MB.
    public var max: UInt64
    /// How many kills the figures summarise: how far to trust them.
    public var count: Int

    package init(min: UInt64, median: Double, max: UInt64, count: Int) {
        self.min = min
        self.median = median
        self.max = max
        self.count = count
    }

    /// The statistics of `values`, or nil when there are none.
    package init?(_ values: [UInt64]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let median: Double
        if sorted.count % 2 == 1 {
            median = Double(sorted[middle])
        } else {
            median = (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
        }
        self.init(min: sorted[0], median: median, max: sorted[sorted.count - 1], count: sorted.count)
    }
}
