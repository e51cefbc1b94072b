extension WatchdogTermination {
    /// CPU time used during the watchdog interval, summed across cores (so percentages can pass 100).
    package struct CPUStatistics: Sendable, Equatable, Codable {
        package var totalSeconds: Double?
        package var userSeconds: Double?
        package var systemSeconds: Double?
        package var totalPercent: Double?
        package var appSeconds: Double?
        package var appPercent: Double?

        package init(
            totalSeconds: Double? = nil,
            userSeconds: Double? = nil,
            systemSeconds: Double? = nil,
            totalPercent: Double? = nil,
            appSeconds: Double? = nil,
            appPercent: Double? = nil
        ) {
            self.totalSeconds = totalSeconds
            self.userSeconds = userSeconds
            self.systemSeconds = systemSeconds
            self.totalPercent = totalPercent
            self.appSeconds = appSeconds
            self.appPercent = appPercent
        }
    }

    /// `ThermalInfo` lines.
    package struct Thermal: Sendable, Equatable, Codable {
        package var level: Int?
        package var state: String?

        package init(level: Int? = nil, state: String? = nil) {
            self.level = level
            self.state = state
        }
    }

    /// The verdict on the main thread, how sure it is, and the frames that show it.
    package struct Diagnosis: Sendable, Equatable, Codable {
        /// What the main thread was doing.
        package enum Verdict: String, Sendable, Equatable, Codable {
            case waitingOnLock
            case synchronousDispatchOrOnce
            case synchronousFileOrDatabaseIO
            case synchronousNetworking
            case crossProcessCall
            case runtimeOrLoaderLock
            case busyInAppCode
            case idleRunLoop
            case unknown
        }

        /// How far the evidence goes.
        package enum Confidence: String, Sendable, Equatable, Codable {
            case high
            case medium
            case low
        }

        package var verdict: Verdict
        package var summary: String
        package var confidence: Confidence
        /// Why: which frames and CPU figures led to the verdict.
        package var reasons: [String]
        /// The main thread's frames that show it, as `image symbol`.
        package var evidenceFrames: [String]
        /// Index of the thread examined.
        package var thread: Int?

        package init(
            verdict: Verdict,
            summary: String,
            confidence: Confidence,
            reasons: [String],
            evidenceFrames: [String],
            thread: Int?
        ) {
            self.verdict = verdict
            self.summary = summary
            self.confidence = confidence
            self.reasons = reasons
            self.evidenceFrames = evidenceFrames
            self.thread = thread
        }
    }
}
