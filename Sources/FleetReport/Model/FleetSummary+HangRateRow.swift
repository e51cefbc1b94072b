extension FleetSummary {
    /// MetricKit's hang rate of one app version: hang time per hour in the foreground, the ratio Xcode's Organizer
    /// calls hang rate.
    package struct HangRateRow: Sendable, Equatable, Encodable {
        /// The bundle id of the payloads (`?` when they name none).
        package var app: String
        package var version: String
        /// Metric payloads summed.
        package var metricPayloads: Int
        /// `histogrammedApplicationHangTime`, each bucket counted at its midpoint.
        package var hangSeconds: Double
        /// `cumulativeForegroundTime`.
        package var foregroundSeconds: Double
        /// Hang seconds per hour in the foreground; nil without foreground time.
        package var hangSecondsPerHour: Double?

        package init(app: String, version: String, metricPayloads: Int, hangSeconds: Double, foregroundSeconds: Double)
        {
            self.app = app
            self.version = version
            self.metricPayloads = metricPayloads
            self.hangSeconds = FleetAggregator.rounded(hangSeconds)
            self.foregroundSeconds = FleetAggregator.rounded(foregroundSeconds)
            let hours = foregroundSeconds / 3600
            let rate = hours > 0 ? hangSeconds / hours : nil
            hangSecondsPerHour = rate.flatMap { $0.isFinite ? FleetAggregator.rounded($0) : nil }
        }
    }
}
