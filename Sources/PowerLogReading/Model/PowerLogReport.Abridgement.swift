extension PowerLogReport {
    /// What a summary read (`PowerLogReader/readSummary(path:limits:)`) counted but did not keep.
    ///
    /// The report's lists of samples, sessions, exits and background location are then thinned or cut to the most
    /// recent, and these figures cover every row. Nil in a full read.
    package struct Abridgement: Sendable, Equatable, Codable {
        /// Battery samples used (the report keeps an evenly thinned subset, with the first and the last).
        package var batterySamples: Int
        package var batteryLevel: Range?
        package var batteryTemperatureCelsius: Range?
        package var batteryVoltageMillivolts: Range?
        /// Battery sessions found (the report keeps the most recent).
        package var batterySessions: Int
        /// Process exits read (the report keeps the most recent).
        package var processExits: Int
        /// Process exits per ``ProcessExit/Reason/Category`` raw value.
        package var exitCategories: [String: Int]
        /// Background location use per app, folded from every row.
        package var backgroundLocationApps: [BackgroundLocationApp]

        package init(
            batterySamples: Int = 0,
            batteryLevel: Range? = nil,
            batteryTemperatureCelsius: Range? = nil,
            batteryVoltageMillivolts: Range? = nil,
            batterySessions: Int = 0,
            processExits: Int = 0,
            exitCategories: [String: Int] = [:],
            backgroundLocationApps: [BackgroundLocationApp] = []
        ) {
            self.batterySamples = batterySamples
            self.batteryLevel = batteryLevel
            self.batteryTemperatureCelsius = batteryTemperatureCelsius
            self.batteryVoltageMillivolts = batteryVoltageMillivolts
            self.batterySessions = batterySessions
            self.processExits = processExits
            self.exitCategories = exitCategories
            self.backgroundLocationApps = backgroundLocationApps
        }

        /// The lowest and highest value of a series that was folded into aggregates.
        package struct Range: Sendable, Equatable, Codable {
            package var low: Double
            package var high: Double

            package init(low: Double, high: Double) {
                self.low = low
                self.high = high
            }

            /// Widened to hold `value`; a new range when there was none.
            static func including(_ value: Double?, in range: Range?) -> Range? {
                guard let value else { return range }
                guard let range else { return Range(low: value, high: value) }
                return Range(low: min(range.low, value), high: max(range.high, value))
            }
        }

        /// An app that used location in the background, folded to its totals.
        package struct BackgroundLocationApp: Sendable, Equatable, Codable {
            package var app: String
            package var buckets: Int
            package var energy: Double
            package var seconds: Double
            package var first: PowerLogTime
            package var last: PowerLogTime

            package init(
                app: String,
                buckets: Int,
                energy: Double,
                seconds: Double,
                first: PowerLogTime,
                last: PowerLogTime
            ) {
                self.app = app
                self.buckets = buckets
                self.energy = energy
                self.seconds = seconds
                self.first = first
                self.last = last
            }
        }
    }
}
