/// What kind of process a JetsamEvent entry is, which decides whose memory limit its kill reveals.
public enum ProcessRole: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// An app on screen (`frontmost` in its states): its `per-process-limit` kill is the app's memory limit.
    case foregroundApp
    /// An app not on screen (suspended, in the background): it is killed at the lower inactive limit.
    case backgroundApp
    /// An app extension or a per-app service (widget, keyboard, packet tunnel, WebKit content process).
    case `extension`
    /// A daemon or system process (`daemon` state, `kernel_task`, `launchd`, SpringBoard and the bands above it).
    case daemon

    /// Classifies a process from what its entry says.
    ///
    /// The rules, in order: the kernel and launchd, or a `daemon` state, make a daemon; an extension-like name
    /// makes an extension (before `frontmost`, since extensions on screen report it too); a known system process or
    /// a band at or above DRIVER_APPLE (150 on the iOS 16 scale) makes a daemon; `frontmost` makes a foreground
    /// app; anything else is a background app.
    ///
    /// - Parameters:
    ///   - name: The process name (may be truncated).
    ///   - states: The entry's `states`.
    ///   - normalizedPriority: The band on the iOS 16+ scale, when the report has priorities.
    /// - Returns: The role the rules give.
    package static func classify(name: String?, states: [String], normalizedPriority: Int64?) -> ProcessRole {
        let name = name ?? ""
        if name == "kernel_task" || name == "launchd" || states.contains("daemon") { return .daemon }
        if isExtensionName(name) { return .extension }
        if systemProcesses.contains(name) { return .daemon }
        let frontmost = states.contains("frontmost")
        if let band = normalizedPriority, band >= 150, !frontmost { return .daemon }
        if frontmost { return .foregroundApp }
        return .backgroundApp
    }

    /// Names of system processes that report no `daemon` state (SpringBoard writes `"states" : []`).
    static let systemProcesses: Set<String> = [
        "SpringBoard", "backboardd", "PineBoard", "Carousel", "CarPlayTemplateUIHost", "mediaserverd", "audiomxd",
        "InCallService", "PosterBoard", "ChronoCore", "loginwindow", "WindowServer", "Dock", "Finder",
    ]

    private static let extensionSuffixes = [
        "Extension", "Extensio", "Ext", "Widget", "Widgets", "Tunnel", "Keyboard", "Intents", "IntentsUI",
        "NotificationService", "NotificationContent", "ShareExt", "Provider", "Upload", "BroadcastUpload",
    ]

    static func isExtensionName(_ name: String) -> Bool {
        if name.hasPrefix("com.apple.WebKit.") { return true }
        if name.hasSuffix(".appex") { return true }
        return extensionSuffixes.contains { name.hasSuffix($0) }
    }
}
