extension FleetSummary {
    /// Hangs from every source whose main thread was stopped in the same stack.
    public struct HangGroup: Sendable, Equatable, Encodable {
        /// The frames joined innermost first (`A ← B`: A called from B), `?` for hangs without a stack.
        public var signature: String
        /// The main thread's frames the group is named by, innermost first (as a resource group's).
        public var frames: [String]
        public var count: Int
        /// Hangs by kind of source (`metricKit`, `kscrash`, `appleHangReport`, `watchdogKill`, `appStoreConnect`).
        public var sources: [String: Int]
        /// Hangs per app version (`?` for reports that name none).
        public var byVersion: Values
        /// The app of the group's first file by path (bundle id, else process name, else `?`).
        public var app: String
        /// The watchdog classifier's verdict on the main thread most of the group's hangs got (on a tie, the first
        /// by name); `unknown` when there was no stack to judge.
        public var verdict: String
        /// Why the verdict is `unknown`, when it is.
        public var verdictReason: String?
        /// Every verdict the group's hangs got, with its count.
        public var verdicts: [String: Int]
        /// The group's files, the first ``FleetLimits/maxFilesPerGroup`` by bytes.
        public var files: [String]
        public var moreFiles: Int
    }

    /// One main-thread stack of the flame graph, root first, with the hangs that had it.
    public struct HangStack: Sendable, Equatable, Encodable {
        /// Folded-stack fields (no `;`, no white space), root first.
        public var frames: [String]
        public var count: Int
    }
}
