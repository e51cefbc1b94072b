/// Resource reports and EXC_RESOURCE crash reports folded into groups by kind and heaviest stack.
///
/// Like the crash groups: counts and the first files by bytes, so the groups do not depend on the order reports
/// arrive in (which groups exist past ``capacity`` does).
struct ResourceKillGroups: Sendable {
    private struct Group {
        var kind: String
        var frames: [String]
        var count = 0
        var fatal = 0
        var app: String
        var versions: CappedCounts
        var sources: [String: Int] = [:]
        var bugTypes: [String: Int] = [:]
        var files: [String] = []
        var fileCount = 0
        var lastFile: String?
    }

    /// Bug types told apart per group: a report has one, so more is hostile input.
    private static let maxBugTypes = 16

    let limits: FleetLimits
    private var groups: [String: Group] = [:]
    private var summary = FleetSummary.ResourceKills()

    init(limits: FleetLimits) {
        self.limits = limits
    }

    /// The group's name: its frames innermost first, each called from the next.
    static func signature(_ frames: [String]) -> String {
        frames.joined(separator: " ← ")
    }

    mutating func add(_ resource: FleetEvent.Resource, file: String) {
        summary.total = FleetAggregator.adding(summary.total, 1)
        if resource.fatal { summary.fatal = FleetAggregator.adding(summary.fatal, 1) }
        if summary.byKind[resource.kind] != nil || summary.byKind.count < Self.maxBugTypes {
            summary.byKind[resource.kind, default: 0] += 1
        }
        let signature = Self.signature(resource.frames)
        let key = resource.kind + "\n" + signature
        let app = FleetAggregator.app(of: resource.context)
        var group: Group
        if let existing = groups[key] {
            group = existing
        } else {
            guard groups.count < limits.maxRows else {
                summary.ungrouped = FleetAggregator.adding(summary.ungrouped, 1)
                return
            }
            group = Group(
                kind: resource.kind,
                frames: resource.frames,
                app: app,
                versions: CappedCounts(capacity: limits.maxVersions, order: VersionOrder.precedes)
            )
        }
        group.count += 1
        if resource.fatal { group.fatal += 1 }
        group.versions.add(FleetAggregator.version(resource.context.appVersion) ?? "?")
        group.sources[resource.source, default: 0] += 1
        if let bugType = resource.bugType,
            group.bugTypes[bugType] != nil || group.bugTypes.count < Self.maxBugTypes
        {
            group.bugTypes[bugType, default: 0] += 1
        }
        if group.lastFile != file {
            // The app of the first file by bytes names the group, whatever order the files came in.
            if group.files.first.map({ file.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true { group.app = app }
            group.lastFile = file
            group.fileCount += 1
            FleetAggregator.keep(file, in: &group.files, capacity: limits.maxFilesPerGroup)
        }
        groups[key] = group
    }

    func result() -> FleetSummary.ResourceKills {
        var result = summary
        result.groups = groups.values.map { group in
            FleetSummary.ResourceGroup(
                signature: Self.signature(group.frames),
                kind: group.kind,
                frames: group.frames,
                count: group.count,
                fatal: group.fatal,
                app: group.app,
                byVersion: FleetSummary.Values(
                    values: group.versions.entries,
                    others: group.versions.others,
                    othersValues: group.versions.othersValues
                ),
                sources: group.sources,
                bugTypes: group.bugTypes,
                files: group.files,
                moreFiles: max(0, group.fileCount - group.files.count)
            )
        }.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.signature.utf8.lexicographicallyPrecedes(b.signature.utf8)
        }
        return result
    }
}
