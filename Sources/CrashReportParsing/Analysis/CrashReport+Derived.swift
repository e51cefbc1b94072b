extension CrashReport {
    /// For readers of other formats (MetricKit) that fill the model themselves: derives what the crash parser
    /// derives for its own reports (OS parts, device name, exception meaning, frame attribution, app images,
    /// signature), so every consumer sees the same fields.
    package mutating func deriveFacts() {
        analyze()
    }
}
