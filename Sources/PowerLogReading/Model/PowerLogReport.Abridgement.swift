extension PowerLogReport {
    /// What a summary read (`PowerLogReader/readSummary(path:limits:)`) counted but did not keep.
    ///
    /// The report's lists of samples, sessions, exits and background location are then thinned or cut to the most
    /// recent, and these figures cover every row. Nil in a full read.
    public struct Abridgement: Sendable, Equatable, Codable {
        /// Battery samples used (the report keeps an evenly thinned subset, with the first and the last).
        public var batterySamples: Int
        public var batteryLevel: Range?
        public var batteryTemperatureCelsius: Range?
        public var batteryVoltageMillivolts: Range?
        /// Battery sessions found (the report keeps the most recent).
        public var batterySessions: Int
        /// Process exits read (the report keeps the most recent).
        public var processExits: Int
        /// Process exits per ``ProcessExit/Reason/Category`` raw value.
        public var exitCategories: [String: Int]
        /// Background location use per app, folded from every row.
        public var backgroundLocationApps: [BackgroundLocationApp]

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
        public struct Range: Sendable, Equatable, Codable {
            public var low: Double
            public var high: Double

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
        public struct BackgroundLocationApp: Sendable, Equatable, Codable {
            public var app: String
            public var buckets: Int
            public var energy: Double
            public var seconds: Double
            public var first: PowerLogTime
            public var last: PowerLogTime

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
