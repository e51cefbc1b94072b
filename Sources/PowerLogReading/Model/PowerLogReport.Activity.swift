extension PowerLogReport {
    /// Seconds an app ran, summed over `PLAppTimeService_Aggregate_AppRunTime` buckets.
    public struct AppRunTime: Sendable, Equatable, Codable {
        public var bundleID: String
        /// The app's name on the home screen, when `PLApplicationAgent_EventNone_AllApps` knows it.
        public var displayName: String?
        /// With the screen on and the app in front (`ScreenOnTime`).
        public var foregroundSeconds: Double
        public var backgroundSeconds: Double
        public var backgroundAudioSeconds: Double
        public var backgroundLocationSeconds: Double
        /// The parts of the above spent on the charger (subsets, not additions).
        public var foregroundPluggedInSeconds: Double
        public var backgroundPluggedInSeconds: Double
        public var buckets: Int

        package init(
            bundleID: String,
            foregroundSeconds: Double,
            backgroundSeconds: Double,
            backgroundAudioSeconds: Double,
            backgroundLocationSeconds: Double,
            foregroundPluggedInSeconds: Double,
            backgroundPluggedInSeconds: Double,
            buckets: Int,
            displayName: String? = nil
        ) {
            self.bundleID = bundleID
            self.displayName = displayName
            self.foregroundSeconds = foregroundSeconds
            self.backgroundSeconds = backgroundSeconds
            self.backgroundAudioSeconds = backgroundAudioSeconds
            self.backgroundLocationSeconds = backgroundLocationSeconds
            self.foregroundPluggedInSeconds = foregroundPluggedInSeconds
            self.backgroundPluggedInSeconds = backgroundPluggedInSeconds
            self.buckets = buckets
        }
    }

    /// CPU, GPU, disk I/O and energy of one coalition, summed over `PLCoalitionAgent_EventInterval_CoalitionInterval`.
    public struct Coalition: Sendable, Equatable, Codable {
        /// The bundle id, or the launchd name when the bundle id is empty.
        public var name: String
        public var intervals: Int
        /// Seconds covered by the intervals.
        public var seconds: Double
        public var cpuSeconds: Double
        public var gpuSeconds: Double
        public var bytesRead: UInt64
        public var bytesWritten: UInt64
        /// The `energy` column, raw (unit undocumented).
        public var energy: Double

        package init(
            name: String,
            intervals: Int,
            seconds: Double,
            cpuSeconds: Double,
            gpuSeconds: Double,
            bytesRead: UInt64,
            bytesWritten: UInt64,
            energy: Double
        ) {
            self.name = name
            self.intervals = intervals
            self.seconds = seconds
            self.cpuSeconds = cpuSeconds
            self.gpuSeconds = gpuSeconds
            self.bytesRead = bytesRead
            self.bytesWritten = bytesWritten
            self.energy = energy
        }
    }

    /// Screen on/off history from the display backlight events.
    public struct Screen: Sendable, Equatable, Codable {
        public var source: String
        public var changes: [Change]
        /// Seconds on and off between the first change and the end of the history.
        public var onSeconds: Double
        public var offSeconds: Double

        package init(source: String, changes: [Change], onSeconds: Double, offSeconds: Double) {
            self.source = source
            self.changes = changes
            self.onSeconds = onSeconds
            self.offSeconds = offSeconds
        }

        /// The screen turned on or off.
        public struct Change: Sendable, Equatable, Hashable, Codable {
            public var at: PowerLogTime
            public var isOn: Bool

            package init(at: PowerLogTime, isOn: Bool) {
                self.at = at
                self.isOn = isOn
            }
        }
    }
}
