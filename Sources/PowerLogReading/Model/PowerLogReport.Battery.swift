extension PowerLogReport {
    /// Battery level over time, charge and discharge sessions, and drain rates with the screen on and off.
    public struct Battery: Sendable, Equatable, Codable {
        /// `PLBatteryAgent_EventBackward_Battery`, or `…_BatteryUI` when the detailed table is empty.
        public var source: String
        public var samples: [Sample]
        public var sessions: [Session]
        public var drain: Drain
        /// The latest cycle count and capacities the gauge reported, when present.
        public var cycleCount: Int64?
        public var designCapacityMAh: Int64?
        public var maxCapacityMAh: Int64?

        public init(
            source: String,
            samples: [Sample],
            sessions: [Session],
            drain: Drain,
            cycleCount: Int64?,
            designCapacityMAh: Int64?,
            maxCapacityMAh: Int64?
        ) {
            self.source = source
            self.samples = samples
            self.sessions = sessions
            self.drain = drain
            self.cycleCount = cycleCount
            self.designCapacityMAh = designCapacityMAh
            self.maxCapacityMAh = maxCapacityMAh
        }

        /// One battery reading.
        public struct Sample: Sendable, Equatable, Hashable, Codable {
            public var at: PowerLogTime
            /// The level the user sees, percent.
            public var level: Double?
            /// The gauge's fractional level, percent.
            public var rawLevel: Double?
            public var voltageMillivolts: Double?
            /// Instantaneous current, mA: positive into the battery, negative out of it.
            public var currentMilliamps: Double?
            /// °C (values written in centi-degrees by some builds are divided by 100).
            public var temperatureCelsius: Double?
            public var isCharging: Bool?
            /// A charger is connected (charging or holding full charge).
            public var externalConnected: Bool?

            public init(
                at: PowerLogTime,
                level: Double?,
                rawLevel: Double? = nil,
                voltageMillivolts: Double? = nil,
                currentMilliamps: Double? = nil,
                temperatureCelsius: Double? = nil,
                isCharging: Bool? = nil,
                externalConnected: Bool? = nil
            ) {
                self.at = at
                self.level = level
                self.rawLevel = rawLevel
                self.voltageMillivolts = voltageMillivolts
                self.currentMilliamps = currentMilliamps
                self.temperatureCelsius = temperatureCelsius
                self.isCharging = isCharging
                self.externalConnected = externalConnected
            }

            /// The most precise level known.
            public var bestLevel: Double? { rawLevel ?? level }
        }

        /// A run of consecutive samples in one charging state, with no sampling gap longer than the configured one.
        public struct Session: Sendable, Equatable, Codable {
            public enum Kind: String, Sendable, Equatable, Codable {
                case charging
                /// On the charger but not charging (full, or held by optimised charging).
                case onCharger
                case discharging
            }

            public var kind: Kind
            public var start: PowerLogTime
            public var end: PowerLogTime
            public var startLevel: Double?
            public var endLevel: Double?
            public var samples: Int

            public init(
                kind: Kind,
                start: PowerLogTime,
                end: PowerLogTime,
                startLevel: Double?,
                endLevel: Double?,
                samples: Int
            ) {
                self.kind = kind
                self.start = start
                self.end = end
                self.startLevel = startLevel
                self.endLevel = endLevel
                self.samples = samples
            }

            public var durationSeconds: Double { end.utcSeconds - start.utcSeconds }

            /// Level change per hour (negative while discharging); nil for sessions under a minute.
            public var percentPerHour: Double? {
                guard let startLevel, let endLevel, durationSeconds >= 60 else { return nil }
                return (endLevel - startLevel) / durationSeconds * 3600
            }
        }

        /// Battery drain off the charger, split by screen state.
        public struct Drain: Sendable, Equatable, Codable {
            public var screenOn: Rate?
            public var screenOff: Rate?
            /// Time for which no screen state is known.
            public var screenUnknown: Rate?

            public init(screenOn: Rate?, screenOff: Rate?, screenUnknown: Rate?) {
                self.screenOn = screenOn
                self.screenOff = screenOff
                self.screenUnknown = screenUnknown
            }

            /// Percent drained over some seconds.
            public struct Rate: Sendable, Equatable, Codable {
                public var seconds: Double
                /// Percent of the battery used (net of any rise).
                public var percent: Double
                public var percentPerHour: Double

                public init(seconds: Double, percent: Double) {
                    self.seconds = seconds
                    self.percent = percent
                    self.percentPerHour = seconds > 0 ? percent / seconds * 3600 : 0
                }
            }
        }
    }
}
