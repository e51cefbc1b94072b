extension PowerLogReport {
    /// Seconds an app ran, summed over `PLAppTimeService_Aggregate_AppRunTime` buckets.
    package struct AppRunTime: Sendable, Equatable, Codable {
        package var bundleID: String
        /// The app's name on the home screen, when `PLApplicationAgent_EventNone_AllApps` knows it.
        package var displayName: String?
        /// With the screen on and the app in front (`ScreenOnTime`).
        package var foregroundSeconds: Double
        package var backgroundSeconds: Double
        package var backgroundAudioSeconds: Double
        package var backgroundLocationSeconds: Double
        /// The parts of the above spent on the charger (subsets, not additions).
        package var foregroundPluggedInSeconds: Double
        package var backgroundPluggedInSeconds: Double
        package var buckets: Int

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
    package struct Coalition: Sendable, Equatable, Codable {
        /// The bundle id, or the launchd name when the bundle id is empty.
        package var name: String
        package var intervals: Int
        /// Seconds covered by the intervals.
        package var seconds: Double
        package var cpuSeconds: Double
        package var gpuSeconds: Double
        package var bytesRead: UInt64
        package var bytesWritten: UInt64
        /// The `energy` column, raw (unit undocumented).
        package var energy: Double

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
    package struct Screen: Sendable, Equatable, Codable {
        package var source: String
        package var changes: [Change]
        /// Seconds on and off between the first change and the end of the history.
        package var onSeconds: Double
        package var offSeconds: Double

        package init(source: String, changes: [Change], onSeconds: Double, offSeconds: Double) {
            self.source = source
            self.changes = changes
            self.onSeconds = onSeconds
            self.offSeconds = offSeconds
        }

        /// The screen turned on or off.
        package struct Change: Sendable, Equatable, Hashable, Codable {
            package var at: PowerLogTime
            package var isOn: Bool

            package init(at: PowerLogTime, isOn: Bool) {
                self.at = at
                self.isOn = isOn
            }
        }
    }
}
