extension FleetSummary {
    /// The resource reports and EXC_RESOURCE crash reports that share a kind and a heaviest stack.
    package struct ResourceGroup: Sendable, Equatable, Encodable {
        /// The frames joined innermost first (`A ← B`: A called from B).
        package var signature: String
        /// `cpu`, `wakeups`, `memory`, `diskWrites`, `threads`, `ports` or `other`.
        package var kind: String
        /// The heaviest stack's frames the group is named by, innermost first: the innermost app frames when the
        /// stack has some, by symbol when the report is symbolicated, else by image and offset.
        package var frames: [String]
        package var count: Int
        /// Reports of the group whose process was killed for it (206, a fatal EXC_RESOURCE).
        package var fatal: Int
        /// The app of the group's first report by path (bundle id, else process name, else `?`).
        package var app: String
        /// Reports per app version (`?` for reports that name none).
        package var byVersion: Values
        /// Reports by kind of file: `resourceReport`, `crashReport`, `kscrash`.
        package var sources: [String: Int]
        /// Bug types seen (`206`), EXC_RESOURCE crash reports under their own (`309`) when they have one.
        package var bugTypes: [String: Int]
        /// The group's files, the first ``FleetLimits/maxFilesPerGroup`` by bytes.
        package var files: [String]
        package var moreFiles: Int
    }

    /// Resource kills and warnings grouped by their heaviest stack.
    package struct ResourceKills: Sendable, Equatable, Encodable {
        package var total = 0
        /// Reports whose process was killed for it.
        package var fatal = 0
        /// Reports by kind of resource.
        package var byKind: [String: Int] = [:]
        package var groups: [ResourceGroup] = []
        /// Reports whose group arrived once the group limit was reached: counted, not grouped.
        package var ungrouped = 0

        package init() {}
    }
}
