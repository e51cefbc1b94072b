/// The numbering of jetsam priority bands a report uses.
///
/// iOS 16 (xnu-8792) multiplied the band numbers by ten: FOREGROUND went from 10 to 100, the maximum from 21 to
/// 210. 999 (INTERNAL: launchd, kernel_task) is the same in both.
public enum PriorityScale: String, Sendable, Equatable, Hashable, Codable {
    /// iOS 15 and earlier: bands 0–21.
    case legacy
    /// iOS 16 and later: bands 0–210.
    case modern

    /// The band on the modern scale.
    package func normalize(_ priority: Int64) -> Int64 {
        if priority == 999 || self == .modern { return priority }
        let (scaled, overflow) = priority.multipliedReportingOverflow(by: 10)
        return overflow ? priority : scaled
    }

    /// The name of the band a modern-scale priority falls in (the highest band at or below it).
    package static func bandName(forNormalized priority: Int64) -> String {
        if priority == 999 { return "INTERNAL" }
        var name = priority < 0 ? "INVALID" : "IDLE"
        for (value, band) in bands where priority >= value { name = band }
        return name
    }

    private static let bands: [(Int64, String)] = [
        (0, "IDLE"), (10, "AGING_BAND1"), (15, "AGING_BAND1_STUCK"), (20, "AGING_BAND2"), (30, "BACKGROUND"),
        (40, "MAIL"), (50, "PHONE"), (75, "FREEZER"), (80, "UI_SUPPORT"), (90, "FOREGROUND_SUPPORT"),
        (100, "FOREGROUND"), (120, "AUDIO_AND_ACCESSORY"), (130, "CONDUCTOR"), (150, "DRIVER_APPLE"),
        (160, "HOME"), (170, "EXECUTIVE"), (180, "IMPORTANT"), (190, "CRITICAL"), (210, "MAX"),
    ]
}
