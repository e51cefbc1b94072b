import APMInspectCore
import FleetReport

extension FleetReportTextRenderer {
    /// `metricKit 2, kscrash 1`: the sources that reported hangs, most first.
    package static func hangSources(_ bySource: [String: Int]) -> String {
        kinds(bySource.filter { $0.value > 0 })
    }

    /// A group's verdict, with the reason when it is `unknown`.
    package static func hangVerdict(_ group: FleetSummary.HangGroup) -> String {
        guard let reason = group.verdictReason else { return group.verdict }
        return group.verdict + " (" + reason + ")"
    }

    static func hangGroupsSection(_ hangs: FleetSummary.Hangs, style: Style) -> String {
        let total = hangs.bySource.values.reduce(0, FleetAggregator.adding)
        guard total > 0 else { return "" }
        var out = heading("Hang groups by main-thread stack", style)
        out += "\(Formatting.grouped(total)) hang(s) from every source: " + hangSources(hangs.bySource) + "\n"
        out += style == .markdown ? "\n" : ""
        let groups = hangs.groups.prefix(shownRows)
        switch style {
        case .markdown:
            out += table(
                ["COUNT", "VERDICT", "APP", "VERSIONS", "SOURCES", "MAIN-THREAD STACK", "EXAMPLE"],
                right: [0],
                rows: groups.map { group in
                    [
                        Formatting.grouped(group.count), hangVerdict(group), group.app, values(group.byVersion),
                        kinds(group.sources), group.signature, group.files.first ?? "–",
                    ]
                },
                style: style
            )
        case .text:
            // As for the resource groups, the stack gets a line of its own under the group's figures.
            out += table(
                ["#", "COUNT", "VERDICT", "APP", "VERSIONS", "SOURCES"],
                right: [0, 1],
                rows: groups.enumerated().map { index, group in
                    [
                        String(index + 1), Formatting.grouped(group.count), group.verdict, group.app,
                        values(group.byVersion), kinds(group.sources),
                    ]
                },
                style: style
            )
            for (index, group) in groups.enumerated() {
                out += "  #\(index + 1)  " + cell(group.signature, style) + "\n"
                if let reason = group.verdictReason { out += "      verdict unknown: " + cell(reason, style) + "\n" }
                if let file = group.files.first { out += "      e.g. " + cell(file, style) + "\n" }
            }
        }
        if hangs.groups.count > shownRows {
            out += afterTable("… \(hangs.groups.count - shownRows) more groups (see --format json)", style)
        }
        if hangs.groupsUngrouped > 0 {
            out +=
                "\(Formatting.grouped(hangs.groupsUngrouped)) hang(s) past the group limit are counted, not grouped.\n"
        }
        if !hangs.stacks.isEmpty {
            out += afterTable("Flame graph of the main-thread stacks: --format folded, or the HTML page.", style)
        }
        return out
    }
}
