/// What a hang's main thread was doing, as the watchdog analysis reads a blocked main thread: the same verdicts
/// (`synchronousFileOrDatabaseIO`, `waitingOnLock`, `synchronousNetworking` …) from the hang's heaviest path.
///
/// Kept as plain values so this library needs no other family's: the classifier lives in WatchdogAnalysis, and
/// the tool joins the two (`MetricKitReport/analyzingHangs(with:)`).
package struct MetricKitHangAnalysis: Sendable, Equatable, Codable {
    /// The watchdog analysis' verdict name (`synchronousFileOrDatabaseIO` …).
    package var verdict: String
    package var summary: String
    /// `high`, `medium` or `low`.
    package var confidence: String
    /// Which frames led to the verdict.
    package var reasons: [String]
    /// The frames that show it, as `image symbol` or `image + offset`.
    package var evidenceFrames: [String]

    package init(verdict: String, summary: String, confidence: String, reasons: [String], evidenceFrames: [String]) {
        self.verdict = verdict
        self.summary = summary
        self.confidence = confidence
        self.reasons = reasons
        self.evidenceFrames = evidenceFrames
    }
}
