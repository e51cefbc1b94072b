import APMInspectCore

/// Which of Apple's two text layouts a translation writes.
package enum AppleTextLayout: String, Sendable, Equatable, CaseIterable {
    /// iOS, iPadOS, tvOS, watchOS devices: `Report Version: 104`, `Triggered by Thread:`.
    case iOS
    /// macOS, including simulator and iOS-on-Mac reports: a leading blank line, `Report Version: 12`,
    /// `Crashed Thread:`, `Thread N Crashed::`.
    case macOS

    /// The layout of the OS the process ran on: `osVersion.isEmbedded` when known, else the OS name of the
    /// train (`macOS 12.4`, `iPhone OS 15.5`), else the header `platform` (1 macOS, 2–9 embedded or simulators).
    ///
    /// A simulator (platform 7) or an iOS app on an Apple-silicon Mac (platform 2) runs on macOS and gets the
    /// macOS layout.
    package static func forReport(_ report: CrashReport, isEmbedded: Bool? = nil) -> AppleTextLayout {
        if let isEmbedded { return isEmbedded ? .iOS : .macOS }
        if let os = report.osVersion ?? report.header?.osVersion {
            switch OSVersion(parsing: os).platform {
            case .macOS: return .macOS
            case .iOS, .tvOS, .watchOS, .visionOS: return .iOS
            case .unknown: break
            }
        }
        if case .number(let text) = report.header?["platform"], let platform = Int(text) {
            return platform == 1 || platform == 6 ? .macOS : .iOS
        }
        return report.platform == .macOS ? .macOS : .iOS
    }
}
