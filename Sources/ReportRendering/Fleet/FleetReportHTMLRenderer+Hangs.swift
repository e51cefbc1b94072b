import APMInspectCore
import FleetReport

extension FleetReportHTMLRenderer {
    /// Hangs from every source grouped by the main thread's stack, and the flame graph of those stacks.
    static func hangGroupsSection(_ hangs: FleetSummary.Hangs) -> String {
        let total = hangs.bySource.values.reduce(0, FleetAggregator.adding)
        guard total > 0 else { return "" }
        var out = "<h2>Hang groups by main-thread stack</h2>\n"
        out += "<p id=\"hang-sources\" data-total=\"\(total)\">\(total) hang(s) from every source: "
        out += escape(FleetReportTextRenderer.hangSources(hangs.bySource)) + ".</p>\n"
        var table = "<table id=\"hang-groups\" class=\"wide\">\n<tr><th>Count</th><th>Verdict</th><th>App</th>"
        table += "<th>Versions</th><th>Sources</th><th>Main-thread stack</th><th>Files</th></tr>\n"
        for group in hangs.groups.prefix(shownRows) {
            table += "<tr class=\"hang-group-row\" data-count=\"\(group.count)\""
            table += " data-verdict=\"\(escape(group.verdict))\"><td class=\"n\">\(group.count)</td>"
            table += "<td>\(escape(FleetReportTextRenderer.hangVerdict(group)))</td>"
            table += stackGroupCells(group)
        }
        out += scrolling(table + "</table>\n")
        if hangs.groups.count > shownRows {
            out += "<p class=\"muted\">\(hangs.groups.count - shownRows) more groups in --format json.</p>\n"
        }
        let graph = FlameGraphSVG().render(
            hangs.stacks.map { ($0.frames, $0.count) },
            id: "hang-flame",
            label: "Flame graph of the hangs' main-thread stacks"
        )
        if !graph.isEmpty {
            out += "<h3>Flame graph of the main-thread stacks</h3>\n"
            out += "<p class=\"muted\">The root at the bottom; a frame is as wide as the share of hangs whose main "
            out += "thread passed through it (its title says how many).</p>\n"
            out += graph
        }
        return out
    }
}
