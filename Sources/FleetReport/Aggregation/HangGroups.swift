/// Hangs from every source folded into groups by the main thread's stack, with the counts by source and the
/// flame graph's stacks.
///
/// Like the resource groups: counts and the first files by bytes, so the groups do not depend on the order the
/// hangs arrive in (which groups and stacks exist past the limits does).
struct HangGroups: Sendable {
    private struct Group {
        var frames: [String]
        var count = 0
        var app: String
        var versions: CappedCounts
        var sources: [String: Int] = [:]
        var verdicts: [String: Int] = [:]
        /// The reason given for each `unknown` verdict, by count.
        var unknownReasons: [String: Int] = [:]
        var files: [String] = []
        var fileCount = 0
        var lastFile: String?
    }

    /// Verdicts and reasons told apart per group: the classifier has a handful, so more is hostile input.
    private static let maxVerdicts = 16

    let limits: FleetLimits
    private var groups: [String: Group] = [:]
    private var stacks: [[String]: Int] = [:]
    private var bySource = FleetSummary.Hangs().bySource
    private var ungroupedGroups = 0
    private var ungroupedStacks = 0

    init(limits: FleetLimits) {
        self.limits = limits
    }

    mutating func add(_ hang: FleetEvent.Hang, file: String) {
        if bySource[hang.source] != nil || bySource.count < Self.maxVerdicts {
            bySource[hang.source] = FleetAggregator.adding(bySource[hang.source] ?? 0, 1)
        }
        if !hang.stack.isEmpty {
            if let count = stacks[hang.stack] {
                stacks[hang.stack] = FleetAggregator.adding(count, 1)
            } else if stacks.count < limits.maxRows {
                stacks[hang.stack] = 1
            } else {
                ungroupedStacks = FleetAggregator.adding(ungroupedStacks, 1)
            }
        }
        let signature = ResourceKillGroups.signature(hang.frames)
        let app = FleetAggregator.app(of: hang.context)
        var group: Group
        if let existing = groups[signature] {
            group = existing
        } else {
            guard groups.count < limits.maxRows else {
                ungroupedGroups = FleetAggregator.adding(ungroupedGroups, 1)
                return
            }
            group = Group(
                frames: hang.frames,
                app: app,
                versions: CappedCounts(capacity: limits.maxVersions, order: VersionOrder.precedes)
            )
        }
        group.count += 1
        group.versions.add(FleetAggregator.version(hang.context.appVersion) ?? "?")
        Self.count(hang.source, in: &group.sources)
        Self.count(hang.verdict, in: &group.verdicts)
        if let reason = hang.verdictReason { Self.count(reason, in: &group.unknownReasons) }
        if group.lastFile != file {
            // The app of the first file by bytes names the group, whatever order the files came in.
            if group.files.first.map({ file.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true { group.app = app }
            group.lastFile = file
            group.fileCount += 1
            FleetAggregator.keep(file, in: &group.files, capacity: limits.maxFilesPerGroup)
        }
        groups[signature] = group
    }

    /// Another report of a hang already counted (one incident id): its file is listed with the hang's group,
    /// nothing is counted again.
    mutating func addFile(of hang: FleetEvent.Hang, file: String) {
        let signature = ResourceKillGroups.signature(hang.frames)
        guard var group = groups[signature], group.lastFile != file else { return }
        group.lastFile = file
        group.fileCount += 1
        FleetAggregator.keep(file, in: &group.files, capacity: limits.maxFilesPerGroup)
        groups[signature] = group
    }

    private static func count(_ key: String, in counts: inout [String: Int]) {
        guard counts[key] != nil || counts.count < maxVerdicts else { return }
        counts[key] = FleetAggregator.adding(counts[key] ?? 0, 1)
    }

    /// The key with the greatest count; on a tie, the first by bytes (so the order of arrival does not matter).
    private static func most(_ counts: [String: Int]) -> String? {
        counts.min { a, b in
            a.value != b.value ? a.value > b.value : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }?.key
    }

    /// Fills `hangs`' groups, counts by source and stacks.
    func fill(_ hangs: inout FleetSummary.Hangs) {
        hangs.bySource = bySource
        hangs.groupsUngrouped = ungroupedGroups
        hangs.stacksUngrouped = ungroupedStacks
        hangs.groups = groups.map { signature, group in
            let verdict = Self.most(group.verdicts) ?? "unknown"
            return FleetSummary.HangGroup(
                signature: signature,
                frames: group.frames,
                count: group.count,
                sources: group.sources,
                byVersion: FleetSummary.Values(
                    values: group.versions.entries,
                    others: group.versions.others,
                    othersValues: group.versions.othersValues
                ),
                app: group.app,
                verdict: verdict,
                verdictReason: verdict == "unknown" ? Self.most(group.unknownReasons) : nil,
                verdicts: group.verdicts,
                files: group.files,
                moreFiles: max(0, group.fileCount - group.files.count)
            )
        }.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            return a.signature.utf8.lexicographicallyPrecedes(b.signature.utf8)
        }
        hangs.stacks = stacks.map { FleetSummary.HangStack(frames: $0.key, count: $0.value) }.sorted { a, b in
            a.frames.lexicographicallyPrecedes(b.frames) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }
}
