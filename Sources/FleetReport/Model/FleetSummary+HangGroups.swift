extension FleetSummary {
    /// Hangs from every source whose main thread was stopped in the same stack.
    package struct HangGroup: Sendable, Equatable, Encodable {
        /// The frames joined innermost first (`A ← B`: A called from B), `?` for hangs without a stack.
        package var signature: String
        /// The main thread's frames the group is named by, innermost first (as a resource group's).
        package var frames: [String]
        package var count: Int
        /// Hangs by kind of source (`metricKit`, `kscrash`, `appleHangReport`, `watchdogKill`, `appStoreConnect`).
        package var sources: [String: Int]
        /// Hangs per app version (`?` for reports that name none).
        package var byVersion: Values
        /// The app of the group's first file by path (bundle id, else process name, else `?`).
        package var app: String
        /// The watchdog classifier's verdict on the main thread most of the group's hangs got (on a tie, the first
        /// by name); `unknown` when there was no stack to judge.
        package var verdict: String
        /// Why the verdict is `unknown`, when it is.
        package var verdictReason: String?
        /// Every verdict the group's hangs got, with its count.
        package var verdicts: [String: Int]
        /// The group's files, the first ``FleetLimits/maxFilesPerGroup`` by bytes.
        package var files: [String]
        package var moreFiles: Int
    }

    /// One main-thread stack of the flame graph, root first, with the hangs that had it.
    package struct HangStack: Sendable, Equatable, Encodable {
        /// Folded-stack fields (no `;`, no white space), root first.
        package var frames: [String]
        package var count: Int
    }
}
