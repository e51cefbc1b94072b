extension PowerLogReport {
    /// Battery level over time, charge and discharge sessions, and drain rates with the screen on and off.
    package struct Battery: Sendable, Equatable, Codable {
        /// `PLBatteryAgent_EventBackward_Battery`, or `…_BatteryUI` when the detailed table is empty.
        package var source: String
        package var samples: [Sample]
        package var sessions: [Session]
        package var drain: Drain
        /// The latest cycle count and capacities the gauge reported, when present.
        package var cycleCount: Int64?
        package var designCapacityMAh: Int64?
        package var maxCapacityMAh: Int64?

        package init(
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
        ///
        /// A dense database's JSON read holds every sample, so the five optional readings are kept as plain doubles
        /// with a bit each for presence (a `Double?` took 16 bytes, the sample 104 instead of 72). The values, the
        /// comparison, the hashing and the JSON are those of the optional stored properties they replace.
        package struct Sample: Sendable, Equatable, Hashable, Codable {
            package var at: PowerLogTime
            private var storedLevel = 0.0
            private var storedRawLevel = 0.0
            private var storedVoltage = 0.0
            private var storedCurrent = 0.0
            private var storedTemperature = 0.0
            /// One bit per reading present, in declaration order.
            private var present: UInt8 = 0
            package var isCharging: Bool?
            /// A charger is connected (charging or holding full charge).
            package var externalConnected: Bool?

            /// The level the user sees, percent.
            package var level: Double? {
                get { reading(storedLevel, 1) }
                set { storedLevel = store(newValue, 1) }
            }

            /// The gauge's fractional level, percent.
            package var rawLevel: Double? {
                get { reading(storedRawLevel, 2) }
                set { storedRawLevel = store(newValue, 2) }
            }

            package var voltageMillivolts: Double? {
                get { reading(storedVoltage, 4) }
                set { storedVoltage = store(newValue, 4) }
            }

            /// Instantaneous current, mA: positive into the battery, negative out of it.
            package var currentMilliamps: Double? {
                get { reading(storedCurrent, 8) }
                set { storedCurrent = store(newValue, 8) }
            }

            /// °C (values written in centi-degrees by some builds are divided by 100).
            package var temperatureCelsius: Double? {
                get { reading(storedTemperature, 16) }
                set { storedTemperature = store(newValue, 16) }
            }

            package init(
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
                self.isCharging = isCharging
                self.externalConnected = externalConnected
                self.level = level
                self.rawLevel = rawLevel
                self.voltageMillivolts = voltageMillivolts
                self.currentMilliamps = currentMilliamps
                self.temperatureCelsius = temperatureCelsius
            }

            /// The most precise level known.
            package var bestLevel: Double? { rawLevel ?? level }

            private func reading(_ value: Double, _ bit: UInt8) -> Double? { present & bit != 0 ? value : nil }

            /// Marks the reading present or absent and gives the double to keep (0 when absent).
            private mutating func store(_ value: Double?, _ bit: UInt8) -> Double {
                guard let value else {
                    present &= ~bit
                    return 0
                }
                present |= bit
                return value
            }

            // What the compiler synthesised for the eight optional stored properties: same order, same keys.

            package static func == (lhs: Sample, rhs: Sample) -> Bool {
                lhs.at == rhs.at && lhs.level == rhs.level && lhs.rawLevel == rhs.rawLevel
                    && lhs.voltageMillivolts == rhs.voltageMillivolts && lhs.currentMilliamps == rhs.currentMilliamps
                    && lhs.temperatureCelsius == rhs.temperatureCelsius && lhs.isCharging == rhs.isCharging
                    && lhs.externalConnected == rhs.externalConnected
            }

            package func hash(into hasher: inout Hasher) {
                hasher.combine(at)
                hasher.combine(level)
                hasher.combine(rawLevel)
                hasher.combine(voltageMillivolts)
                hasher.combine(currentMilliamps)
                hasher.combine(temperatureCelsius)
                hasher.combine(isCharging)
                hasher.combine(externalConnected)
            }

            private enum CodingKeys: String, CodingKey {
                case at
                case level
                case rawLevel
                case voltageMillivolts
                case currentMilliamps
                case temperatureCelsius
                case isCharging
                case externalConnected
            }

            package init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                self.init(
                    at: try container.decode(PowerLogTime.self, forKey: .at),
                    level: try container.decodeIfPresent(Double.self, forKey: .level),
                    rawLevel: try container.decodeIfPresent(Double.self, forKey: .rawLevel),
                    voltageMillivolts: try container.decodeIfPresent(Double.self, forKey: .voltageMillivolts),
                    currentMilliamps: try container.decodeIfPresent(Double.self, forKey: .currentMilliamps),
                    temperatureCelsius: try container.decodeIfPresent(Double.self, forKey: .temperatureCelsius),
                    isCharging: try container.decodeIfPresent(Bool.self, forKey: .isCharging),
                    externalConnected: try container.decodeIfPresent(Bool.self, forKey: .externalConnected)
                )
            }

            package func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(at, forKey: .at)
                try container.encodeIfPresent(level, forKey: .level)
                try container.encodeIfPresent(rawLevel, forKey: .rawLevel)
                try container.encodeIfPresent(voltageMillivolts, forKey: .voltageMillivolts)
                try container.encodeIfPresent(currentMilliamps, forKey: .currentMilliamps)
                try container.encodeIfPresent(temperatureCelsius, forKey: .temperatureCelsius)
                try container.encodeIfPresent(isCharging, forKey: .isCharging)
                try container.encodeIfPresent(externalConnected, forKey: .externalConnected)
            }
        }

        /// A run of consecutive samples in one charging state, with no sampling gap longer than the configured one.
        package struct Session: Sendable, Equatable, Codable {
            /// Whether the session charged or discharged the battery.
            package enum Kind: String, Sendable, Equatable, Codable {
                case charging
                /// On the charger but not charging (full, or held by optimised charging).
                case onCharger
                case discharging
            }

            package var kind: Kind
            package var start: PowerLogTime
            package var end: PowerLogTime
            package var startLevel: Double?
            package var endLevel: Double?
            package var samples: Int

            package init(
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

            package var durationSeconds: Double { end.utcSeconds - start.utcSeconds }

            /// Level change per hour (negative while discharging); nil for sessions under a minute.
            package var percentPerHour: Double? {
                guard let startLevel, let endLevel, durationSeconds >= 60 else { return nil }
                return (endLevel - startLevel) / durationSeconds * 3600
            }
        }

        /// Battery drain off the charger, split by screen state.
        package struct Drain: Sendable, Equatable, Codable {
            package var screenOn: Rate?
            package var screenOff: Rate?
            /// Time for which no screen state is known.
            package var screenUnknown: Rate?

            package init(screenOn: Rate?, screenOff: Rate?, screenUnknown: Rate?) {
                self.screenOn = screenOn
                self.screenOff = screenOff
                self.screenUnknown = screenUnknown
            }

            /// Percent drained over some seconds.
            package struct Rate: Sendable, Equatable, Codable {
                package var seconds: Double
                /// Percent of the battery used (net of any rise).
                package var percent: Double
                package var percentPerHour: Double

                package init(seconds: Double, percent: Double) {
                    self.seconds = seconds
                    self.percent = percent
                    self.percentPerHour = seconds > 0 ? percent / seconds * 3600 : 0
                }
            }
        }
    }
}
