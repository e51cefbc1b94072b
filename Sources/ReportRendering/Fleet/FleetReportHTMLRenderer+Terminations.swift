import APMInspectCore
import FleetReport

extension FleetReportHTMLRenderer {
    /// The OOM truth table; each row carries its counts in `data-` attributes for the check against the JSON.
    static func truthTableSection(_ oom: FleetSummary.OOM) -> String {
        guard !oom.byVersionAndDevice.isEmpty || oom.unlinkedKills > 0 else { return "" }
        var out = "<h2>OOM truth table</h2>\n"
        out += "<p>Per app, version and device model: OOMs the OS reported (confirmed), OOMs counted without an "
        out += "incident (inferred), and the other terminations, each with its sources.</p>\n"
        var table = "<table id=\"oom-truth\" class=\"wide\">\n<tr><th>App</th><th>Version</th><th>Device</th>"
        table += "<th>Confirmed</th><th>Inferred</th><th>Other terminations</th><th>Limit MB</th>"
        table += "<th>JetsamEvent link</th></tr>\n"
        for row in oom.byVersionAndDevice.prefix(shownRows) {
            table +=
                "<tr class=\"oom-truth-row\" data-app=\"\(escape(row.app))\" data-version=\"\(escape(row.version))\""
            table += " data-device=\"\(escape(row.device))\" data-confirmed=\"\(row.confirmed.count)\""
            table += " data-inferred=\"\(row.inferred.count)\" data-other=\"\(row.otherTerminations.count)\">"
            table += "<td>\(escape(row.app))</td><td>\(escape(row.version))</td><td>\(escape(row.device))</td>"
            for counts in [row.confirmed, row.inferred, row.otherTerminations] {
                table += "<td>\(escape(FleetReportTextRenderer.sourceCounts(counts)))</td>"
            }
            table += "<td class=\"n\">\(escape(FleetReportTextRenderer.limit(row.memoryLimitMB)))</td>"
            table += "<td>\(escape(FleetReportTextRenderer.links(row.jetsamLinks)))</td></tr>\n"
        }
        out += scrolling(table + "</table>\n")
        if oom.unlinkedKills > 0 {
            out += "<p id=\"oom-unlinked\" data-count=\"\(oom.unlinkedKills)\">\(oom.unlinkedKills) JetsamEvent "
            out += "kill(s) of other apps, not at their own limit and tied to no report, are left out.</p>\n"
        }
        return out
    }

    /// Resource reports and EXC_RESOURCE crash reports by heaviest stack.
    static func resourceKillsSection(_ kills: FleetSummary.ResourceKills) -> String {
        guard kills.total > 0 else { return "" }
        var out = "<h2>Resource kills and warnings by heaviest stack</h2>\n"
        out += "<p><span id=\"resource-total\" data-count=\"\(kills.total)\">\(kills.total)</span> report(s), "
        out += "<span id=\"resource-fatal\" data-count=\"\(kills.fatal)\">\(kills.fatal)</span> fatal: "
        out += escape(FleetReportTextRenderer.kinds(kills.byKind)) + ".</p>\n"
        var table = "<table id=\"resource-kills\" class=\"wide\">\n<tr><th>Count</th><th>Fatal</th><th>Kind</th>"
        table += "<th>App</th><th>Versions</th><th>Sources</th><th>Heaviest stack</th><th>Files</th></tr>\n"
        for group in kills.groups.prefix(shownRows) {
            table += "<tr class=\"resource-row\" data-kind=\"\(escape(group.kind))\" data-count=\"\(group.count)\""
            table += " data-fatal=\"\(group.fatal)\"><td class=\"n\">\(group.count)</td>"
            table += "<td class=\"n\">\(group.fatal)</td><td>\(escape(group.kind))</td>"
            table += stackGroupCells(group)
        }
        return out + scrolling(table + "</table>\n")
    }

    /// MetricKit's hang rate per app version.
    static func hangRateSection(_ hangs: FleetSummary.Hangs) -> String {
        guard !hangs.rateByVersion.isEmpty else { return "" }
        var table = "<table id=\"hang-rate\">\n<tr><th>App</th><th>Version</th><th>Payloads</th><th>Hang s</th>"
        table += "<th>Foreground h</th><th>Hang rate s/h</th></tr>\n"
        for row in hangs.rateByVersion.prefix(shownRows) {
            let rate = row.hangSecondsPerHour.map(Formatting.oneDecimal) ?? "–"
            table +=
                "<tr class=\"hang-rate-row\" data-app=\"\(escape(row.app))\" data-version=\"\(escape(row.version))\""
            table += " data-rate=\"\(row.hangSecondsPerHour.map { String($0) } ?? "")\"><td>\(escape(row.app))</td>"
            table += "<td>\(escape(row.version))</td><td class=\"n\">\(row.metricPayloads)</td>"
            table += "<td class=\"n\">\(Formatting.oneDecimal(row.hangSeconds))</td>"
            table += "<td class=\"n\">\(Formatting.oneDecimal(row.foregroundSeconds / 3600))</td>"
            table += "<td class=\"n\">\(rate)</td></tr>\n"
        }
        return "<h2>Hang rate by version (MetricKit)</h2>\n" + scrolling(table + "</table>\n")
    }
}
