/// The starting values and the per-row additions the full read (`PowerLogAnalysis`) and the bounded summary
/// (`PowerLogFold`) share, so both count a row the same way.
extension PowerLogReport.AppRunTime {
    /// An app with nothing counted yet.
    init(bundleID: String) {
        self.init(
            bundleID: bundleID,
            foregroundSeconds: 0,
            backgroundSeconds: 0,
            backgroundAudioSeconds: 0,
            backgroundLocationSeconds: 0,
            foregroundPluggedInSeconds: 0,
            backgroundPluggedInSeconds: 0,
            buckets: 0
        )
    }

    /// Adds one `AppRunTime` bucket of this app.
    mutating func add(_ row: RunTimeRow) {
        foregroundSeconds += row.screenOn
        backgroundSeconds += row.background
        backgroundAudioSeconds += row.backgroundAudio
        backgroundLocationSeconds += row.backgroundLocation
        foregroundPluggedInSeconds += row.screenOnPluggedIn
        backgroundPluggedInSeconds += row.backgroundPluggedIn
        buckets += 1
    }
}

extension PowerLogReport.AppEnergy {
    /// A consumer with nothing billed yet; `isSystem` for hardware nodes and nodes billed to themselves.
    init(consumer name: String, isSystem: Bool = false) {
        self.init(
            name: name,
            kind: isSystem ? .system : (name.contains(".") ? .app : .process),
            energy: 0,
            share: 0,
            components: [:],
            sources: [:],
            buckets: 0
        )
    }
}
