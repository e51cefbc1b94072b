extension FleetSummary {
    /// The resource reports and EXC_RESOURCE crash reports that share a kind and a heaviest stack.
    public struct ResourceGroup: Sendable, Equatable, Encodable {
        /// The frames joined innermost first (`A ← B`: A called from B).
        public var signature: String
        /// `cpu`, `wakeups`, `memory`, `diskWrites`, `threads`, `ports` or `other`.
        public var kind: String
        /// The heaviest stack's frames the group is named by, innermost first: the innermost app frames when the
        /// stack has some, by symbol when the report is symbolicated, else by image and offset.
        public var frames: [String]
        public var count: Int
        /// Reports of the group whose process was killed for it (206, a fatal EXC_RESOURCE).
        public var fatal: Int
        /// The app of the group's first report by path (bundle id, else process name, else `?`).
        public var app: String
        /// Reports per app version (`?` for reports that name none).
        public var byVersion: Values
        /// Reports by kind of file: `resourceReport`, `crashReport`, `kscrash`.
        public var sources: [String: Int]
        /// Bug types seen (`206`), EXC_RESOURCE crash reports under their own (`309`) when they have one.
        public var bugTypes: [String: Int]
        /// The group's files, the first ``FleetLimits/maxFilesPerGroup`` by bytes.
        public var files: [String]
        public var moreFiles: Int
    }

    /// Resource kills and warnings grouped by their heaviest stack.
    public struct ResourceKills: Sendable, Equatable, Encodable {
        public var total = 0
        /// Reports whose process was killed for it.
        public var fatal = 0
        /// Reports by kind of resource.
        public var byKind: [String: Int] = [:]
        public var groups: [ResourceGroup] = []
        /// Reports whose group arrived once the group limit was reached: counted, not grouped.
        public var ungrouped = 0

        package init() {}
    }
}
