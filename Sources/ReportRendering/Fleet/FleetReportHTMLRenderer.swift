import APMInspectCore
import FleetReport
import JetsamParsing

/// The fleet report as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched.
///
/// A page opened from a CI artifact must show the same figures offline, and a crash report's strings (process
/// names, frames, paths) are attacker-controlled: every one is escaped for HTML. Tables carry their figures in
/// `data-` attributes too, so that a check can compare them with `--format json`.
package enum FleetReportHTMLRenderer {
    package static let shownRows = 200
    private static let palette = ["#3366cc", "#dc3912", "#ff9900", "#109618", "#990099"]

    package static func render(_ summary: FleetSummary) -> String {
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            <title>Fleet report</title>
            <style>
            *{box-sizing:border-box}
            body{font:14px/1.4 -apple-system,system-ui,sans-serif;margin:0 auto;padding:1em 2em;max-width:1400px;color:#222}
            h1,h2,h3,p,li,dd,dt{overflow-wrap:anywhere}
            .scroll{max-width:100%;overflow-x:auto;margin:.5em 0 1.5em}
            table{border-collapse:collapse}
            th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
            th{white-space:nowrap}
            td.n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
            table.wide{min-width:64em}
            code{font:12px ui-monospace,monospace;word-break:break-all}
            td ul{margin:0;padding-left:1.2em}
            .muted{color:#777}
            svg{max-width:100%;height:auto}
            svg text{font:11px sans-serif;fill:#333}
            @media (max-width:600px){body{padding:.5em .75em}table.wide{min-width:48em}}
            </style>
            </head>
            <body>
            <h1>Fleet report</h1>

            """
        out += "<p id=\"headline\">\(escape(FleetReportTextRenderer.headline(summary)))</p>\n"
        if let filters = FleetReportTextRenderer.filterLine(summary.filters) {
            out += "<p>Filters: \(escape(filters))</p>\n"
        }
        out += inputsSection(summary)
        out += kindSection(summary)
        out += crashSection(summary.crashes)
        out += watchdogSection(summary.watchdog)
        out += oomSection(summary.oom)
        out += memoryKillsSection(summary.oom.metricKitByVersion, underJetsam: summary.oom.events > 0)
        out += metricKitSection(summary.metricKit)
        out += hangRateSection(summary.hangs)
        out += hangGroupsSection(summary.hangs)
        out += truthTableSection(summary.oom)
        out += resourceKillsSection(summary.resourceKills)
        out += metricKitDeviceSection(summary.metricKitFleet.byDevice)
        out += diagnosticsSection(summary)
        out += "</body>\n</html>\n"
        return out
    }

    /// A table in a box that scrolls sideways when the table is wider than the page, so the page never is.
    static func scrolling(_ table: String) -> String {
        "<div class=\"scroll\">\n" + table + "</div>\n"
    }

    /// When the page was made and from what: reports by file kind, files skipped and why.
    private static func inputsSection(_ summary: FleetSummary) -> String {
        let inputs = summary.inputs
        var out = "<h2>Inputs</h2>\n<p id=\"generated\">"
        if let time = summary.generatedAt {
            out += "Generated <time datetime=\"\(escape(time))\">\(escape(time))</time> from "
        } else {
            out += "Made from "
        }
        out +=
            "<span id=\"reports-read\" data-count=\"\(inputs.reports)\">\(Formatting.grouped(inputs.reports))</span> "
        out += "report(s)"
        if inputs.ndjsonEnvelopes > 0 { out += " (\(Formatting.grouped(inputs.ndjsonEnvelopes)) from NDJSON)" }
        out += ", <span id=\"skipped-files\" data-count=\"\(inputs.skippedFiles)\">"
        out += "\(Formatting.grouped(inputs.skippedFiles))</span> skipped.</p>\n"
        var kinds = "<table id=\"input-kinds\">\n<tr><th>File kind</th><th>Reports</th></tr>\n"
        for row in FleetReportTextRenderer.inputKinds(inputs) {
            kinds += "<tr class=\"input-kind\" data-kind=\"\(escape(row.kind))\" data-count=\"\(row.count)\">"
            kinds += "<td>\(escape(row.kind))</td><td class=\"n\">\(Formatting.grouped(row.count))</td></tr>\n"
        }
        out += scrolling(kinds + "</table>\n")
        guard !inputs.skipped.isEmpty else { return out }
        var skipped = "<table id=\"skipped\">\n<tr><th>Skipped file</th><th>Kind</th><th>Reason</th></tr>\n"
        for row in inputs.skipped {
            skipped +=
                "<tr class=\"skipped-row\" data-file=\"\(escape(row.file))\"><td><code>\(escape(row.file))</code></td>"
            skipped += "<td>\(escape(row.kind))</td><td>\(escape(row.reason))</td></tr>\n"
        }
        out += scrolling(skipped + "</table>\n")
        if inputs.skippedFiles > inputs.skipped.count {
            out += "<p class=\"muted\">\(Formatting.grouped(inputs.skippedFiles - inputs.skipped.count)) more skipped "
            out += "file(s) in the JSON report.</p>\n"
        }
        return out
    }

    /// The inputs' diagnostics with their codes, or the findings as lines when none has a code.
    private static func diagnosticsSection(_ summary: FleetSummary) -> String {
        if !summary.diagnostics.isEmpty {
            var table =
                "<table id=\"diagnostics\">\n<tr><th>Severity</th><th>Code</th><th>File</th><th>Message</th></tr>\n"
            for finding in summary.diagnostics {
                let diagnostic = finding.diagnostic
                table += "<tr class=\"diagnostic-row\" data-code=\"\(escape(diagnostic.code.description))\">"
                table +=
                    "<td>\(escape(diagnostic.severity.rawValue))</td><td><code>\(escape(diagnostic.code.description))"
                table +=
                    "</code></td><td><code>\(escape(finding.file))</code></td><td>\(escape(diagnostic.message))</td></tr>\n"
            }
            return "<h2>Diagnostics</h2>\n" + scrolling(table + "</table>\n")
        }
        guard !summary.findings.isEmpty else { return "" }
        var out = "<h2>Findings</h2>\n<ul>\n"
        for finding in summary.findings { out += "<li>\(escape(finding))</li>\n" }
        return out + "</ul>\n"
    }

    private static func crashSection(_ crashes: FleetSummary.Crashes) -> String {
        var out = "<h2>Crash groups</h2>\n"
        out += "<p><span id=\"crash-total\" data-count=\"\(crashes.total)\">\(crashes.total)</span> crash(es) in "
        out += "<span id=\"crash-signatures\" data-count=\"\(crashes.signatures)\">\(crashes.signatures)</span> "
        out += "signature(s).</p>\n"
        if crashes.duplicatesLinked > 0 {
            out += "<p><span id=\"crash-duplicates-linked\" data-count=\"\(crashes.duplicatesLinked)\">"
            out += "\(crashes.duplicatesLinked)</span> report(s) linked to another reporter's report of the same crash "
            out += "(\(crashes.linkedCrashes) crash(es)), each crash counted once.</p>\n"
        }
        if !crashes.perDay.isEmpty { out += perDayChart(crashes.perDay) }
        guard !crashes.groups.isEmpty else { return out + newInReleaseSection(crashes) }
        var table = "<table id=\"crash-groups\" class=\"wide\">\n<tr><th>Count</th><th>Share</th><th>Signature</th>"
        table += "<th>First seen</th><th>Last seen</th><th>App versions</th><th>OS versions</th><th>Devices</th>"
        table += "<th>Top frame</th><th>Process</th><th>Exception</th></tr>\n"
        for group in crashes.groups.prefix(shownRows) {
            table +=
                "<tr class=\"crash-group\" data-signature=\"\(escape(group.signature))\" data-count=\"\(group.count)\""
            table += " data-share=\"\(group.share)\" data-new=\"\(group.newInNewestVersion)\">"
            table +=
                "<td class=\"n\">\(group.count)</td><td class=\"n\">\(FleetReportTextRenderer.percent(group.share))</td>"
            table += "<td><code>\(escape(group.signature))</code>"
            if group.newInNewestVersion { table += " <strong>new</strong>" }
            table += "</td><td>\(escape(group.firstSeen ?? "–"))</td><td>\(escape(group.lastSeen ?? "–"))</td>"
            table += "<td>\(values(group.appVersions, keeping: group.newestVersionSeen))</td>"
            table += "<td>\(values(group.osVersions))</td><td>\(values(group.devices))</td>"
            table += "<td><code>\(escape(group.topFrame ?? "–"))</code></td>"
            table += "<td>\(escape(group.process))</td><td>\(escape(group.exception))</td></tr>\n"
        }
        out += scrolling(table + "</table>\n")
        if crashes.groups.count > shownRows {
            out += "<p class=\"muted\">\(crashes.groups.count - shownRows) more signatures in the JSON report.</p>\n"
        }
        out += groupFilesSection(crashes.groups)
        return out + newInReleaseSection(crashes)
    }

    /// Every shown group's report files: the representative one, the first ones by path, and how many more.
    private static func groupFilesSection(_ groups: [FleetSummary.CrashGroup]) -> String {
        var table = "<table id=\"group-files\" class=\"wide\">\n<tr><th>Signature</th><th>App</th>"
        table += "<th>Representative file</th><th>Files</th></tr>\n"
        for group in groups.prefix(shownRows) {
            table += "<tr class=\"group-files\" data-signature=\"\(escape(group.signature))\""
            table += " data-more-files=\"\(group.moreFiles)\"><td><code>\(escape(group.signature))</code>"
            table += groupingRuleNote(group) + "</td>"
            table += "<td>\(escape(group.app))</td><td><code>\(escape(group.representativeFile))</code></td><td><ul>"
            for file in group.files { table += "<li class=\"group-file\"><code>\(escape(file))</code></li>" }
            if group.moreFiles > 0 { table += "<li>+\(Formatting.grouped(group.moreFiles)) more file(s)</li>" }
            table += "</ul>"
            if group.duplicatesLinked > 0 {
                table += "<div class=\"muted linked-sources\" data-duplicates-linked=\"\(group.duplicatesLinked)\">"
                table += escape(FleetReportTextRenderer.linkedLine(group, style: .text)) + "</div>"
            }
            table += "</td></tr>\n"
        }
        return "<h3>Reports of each group</h3>\n" + scrolling(table + "</table>\n")
    }

    /// For a group a `--grouping` rule made: its title and the rule (line and text); empty for a signature's group.
    private static func groupingRuleNote(_ group: FleetSummary.CrashGroup) -> String {
        guard let rule = group.groupingRule else { return "" }
        var note = ""
        if let title = group.title { note += "<div class=\"grouping-title\">\(escape(title))</div>" }
        note += "<div class=\"muted grouping-rule\" data-rule-line=\"\(rule.line)\">rule at line \(rule.line): "
        return note + "<code>\(escape(rule.text))</code></div>"
    }

    /// Each app's newest version, and the groups first seen in it.
    private static func newInReleaseSection(_ crashes: FleetSummary.Crashes) -> String {
        let rows = FleetReportTextRenderer.newInRelease(crashes)
        guard !rows.isEmpty else { return "" }
        var out = "<h3>New in the newest version of each app</h3>\n"
        var table = "<table id=\"newest-versions\">\n<tr><th>App</th><th>Newest version</th><th>New groups</th></tr>\n"
        for row in rows.prefix(shownRows) {
            table +=
                "<tr class=\"newest-version\" data-app=\"\(escape(row.app))\" data-version=\"\(escape(row.version))\""
            table += " data-new=\"\(row.groups.count)\"><td>\(escape(row.app))</td><td>\(escape(row.version))</td>"
            table += "<td class=\"n\">\(row.groups.count)</td></tr>\n"
        }
        out += scrolling(table + "</table>\n")
        let groups = crashes.groups.filter(\.newInNewestVersion)
        guard !groups.isEmpty else { return out + "<p>No crash group first appears in a newest version.</p>\n" }
        out += "<ul id=\"new-in-newest\">\n"
        for group in groups.prefix(shownRows) {
            out += "<li data-signature=\"\(escape(group.signature))\"><code>\(escape(group.signature))</code> "
            out += "\(escape(group.app)) \(escape(group.appNewestVersion ?? "?")): \(group.count) crash(es), "
            out += "<code>\(escape(group.topFrame ?? "–"))</code></li>\n"
        }
        return out + "</ul>\n"
    }

    /// One column per day with crashes (the newest 60 of them), a dashed gap where days without crashes were left
    /// out, each column labelled with its date; one row of bars per top group, its count over the bar.
    private static func perDayChart(_ series: [FleetSummary.DaySeries]) -> String {
        let days = Set(series.flatMap { $0.days.map(\.day) }).compactMap(DayCounts.day(isoDate:)).sorted().suffix(60)
        guard let firstDay = days.first else { return "" }
        let columnWidth = days.count <= 31 ? 28 : max(10, 900 / days.count)
        let gapWidth = 16
        let left = 160
        let rowHeight = 56
        // x of each day's column, with a gap before a day that does not follow the previous one.
        var columns: [(day: Int, x: Int)] = []
        var gaps: [(x: Int, days: Int)] = []
        var x = left
        var previous = firstDay - 1
        for day in days {
            if day - previous > 1 {
                gaps.append((x, day - previous - 1))
                x += gapWidth
            }
            columns.append((day, x))
            x += columnWidth
            previous = day
        }
        let width = x + 10
        let labelEvery = max(1, (columns.count + 29) / 30)
        let axis = rowHeight * series.count + 14
        let height = axis + 70
        let peak = max(1, series.flatMap { $0.days.map(\.count) }.max() ?? 1)
        var out = "<h3>Crashes per day, top groups</h3>\n"
        out += "<p class=\"muted\">UTC days with crashes; a dashed line marks days without any, left out.</p>\n"
        out +=
            "<svg id=\"crashes-per-day\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        out +=
            "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"Crashes per day for the top crash groups\">\n"
        for (row, item) in series.enumerated() {
            let color = palette[row % palette.count]
            let base = rowHeight * (row + 1)
            out +=
                "<text x=\"0\" y=\"\(base - 4)\" fill=\"\(color)\">\(escape(String(item.signature.prefix(18))))</text>\n"
            out += "<line x1=\"\(left)\" y1=\"\(base)\" x2=\"\(width - 10)\" y2=\"\(base)\" stroke=\"#ccc\"/>\n"
            let counts = Dictionary(item.days.map { ($0.day, $0.count) }, uniquingKeysWith: +)
            for column in columns {
                let day = DayCounts.isoDate(day: column.day)
                guard let count = counts[day], count > 0 else { continue }
                let barHeight = max(2, (rowHeight - 20) * count / peak)
                out += "<rect class=\"day\" data-signature=\"\(escape(item.signature))\" data-day=\"\(escape(day))\""
                out += " data-count=\"\(count)\" x=\"\(column.x + 1)\" y=\"\(base - barHeight)\""
                out += " width=\"\(max(2, columnWidth - 3))\" height=\"\(barHeight)\" fill=\"\(color)\">"
                out += "<title>\(escape(day)): \(count)</title></rect>\n"
                if columnWidth >= 20 {
                    out += "<text x=\"\(column.x + columnWidth / 2)\" y=\"\(base - barHeight - 2)\" "
                    out += "text-anchor=\"middle\">\(count)</text>\n"
                }
            }
        }
        for gap in gaps {
            let middle = gap.x + gapWidth / 2
            out += "<line class=\"gap\" data-days=\"\(gap.days)\" x1=\"\(middle)\" y1=\"8\" x2=\"\(middle)\" "
            out += "y2=\"\(axis)\" stroke=\"#999\" stroke-dasharray=\"3 3\"><title>\(gap.days) day(s) without crashes"
            out += "</title></line>\n"
        }
        var lastYear = ""
        for (index, column) in columns.enumerated() where index % labelEvery == 0 {
            let iso = DayCounts.isoDate(day: column.day)
            let year = String(iso.prefix(4))
            let label = year == lastYear ? String(iso.dropFirst(5)) : iso
            lastYear = year
            let labelX = column.x + columnWidth / 2
            out += "<text x=\"\(labelX)\" y=\"\(axis + 4)\" text-anchor=\"end\" "
            out += "transform=\"rotate(-60 \(labelX) \(axis + 4))\">\(escape(label))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    private static func kindSection(_ summary: FleetSummary) -> String {
        var table = "<table id=\"kinds\">\n<tr><th>Kind</th><th>Count</th></tr>\n"
        for row in FleetReportTextRenderer.kindRows(summary) {
            table += "<tr id=\"kind-\(row.id)\" data-count=\"\(row.count)\"><td>\(row.name)</td>"
            table += "<td class=\"n\">\(row.count)</td></tr>\n"
        }
        var out = "<h2>Reports by kind</h2>\n" + scrolling(table + "</table>\n")
        let hangs = summary.hangs
        out += "<p id=\"hangs\" data-total=\"\(hangs.total)\" data-recovered=\"\(hangs.recovered)\">"
        out += "\(hangs.total) hang(s), \(hangs.recovered) recovered"
        if let longest = hangs.longestSeconds {
            out += "; \(hangs.measured) measured, \(Formatting.oneDecimal(hangs.totalSeconds)) s in all, the longest "
            out += "\(Formatting.oneDecimal(longest)) s"
        }
        return out + ".</p>\n"
    }

    private static func watchdogSection(_ watchdog: FleetSummary.Watchdog) -> String {
        guard watchdog.total > 0 else { return "" }
        let out = "<h2>Watchdog terminations</h2>\n<p>\(watchdog.total) termination(s).</p>\n"
        var table =
            "<table id=\"watchdog\">\n<tr><th>Count</th><th>Reason</th><th>Main thread</th><th>Example</th></tr>\n"
        for row in watchdog.rows.prefix(shownRows) {
            table +=
                "<tr class=\"watchdog-row\" data-reason=\"\(escape(row.reason))\" data-verdict=\"\(escape(row.verdict))\""
            table += " data-count=\"\(row.count)\"><td class=\"n\">\(row.count)</td><td>\(escape(row.reason))</td>"
            table += "<td>\(escape(row.verdict))</td><td><code>\(escape(row.example))</code></td></tr>\n"
        }
        return out + scrolling(table + "</table>\n")
    }

    private static func oomSection(_ oom: FleetSummary.OOM) -> String {
        guard oom.events > 0 else { return "" }
        var out = "<h2>OOM kills by device</h2>\n"
        out += "<p><span id=\"oom-killed\" data-count=\"\(oom.killed)\">\(oom.killed)</span> process(es) killed in "
        out += "<span id=\"oom-events\" data-count=\"\(oom.events)\">\(oom.events)</span> JetsamEvent(s).</p>\n"
        out += "<p id=\"oom-confirmed\" data-count=\"\(oom.confirmed.count)\">"
        out += "\(escape(FleetReportTextRenderer.confirmedLine(oom.confirmed))).</p>\n"
        let rows = Array(oom.byDevice.prefix(15))
        let peak = max(1, rows.map(\.killed).max() ?? 1)
        let left = 220
        let width = left + 400 + 60
        let height = rows.count * 22 + 10
        out += "<svg id=\"oom-by-device\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" "
        out +=
            "height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"OOM kills by device\">\n"
        for (index, row) in rows.enumerated() {
            let y = index * 22 + 5
            let length = max(1, 400 * row.killed / peak)
            let label = row.deviceName.map { "\($0) (\(row.device))" } ?? row.device
            out += "<text x=\"0\" y=\"\(y + 14)\">\(escape(String(label.prefix(34))))</text>\n"
            out += "<rect class=\"device\" data-device=\"\(escape(row.device))\" data-killed=\"\(row.killed)\" "
            out += "x=\"\(left)\" y=\"\(y)\" width=\"\(length)\" height=\"18\" fill=\"#dc3912\">"
            out += "<title>\(escape(label)): \(row.killed)</title></rect>\n"
            out += "<text x=\"\(left + length + 4)\" y=\"\(y + 14)\">\(row.killed)</text>\n"
        }
        out += "</svg>\n"
        var table = "<table id=\"oom\">\n<tr><th>Device</th><th>Name</th><th>JetsamEvents</th><th>Killed</th></tr>\n"
        for row in oom.byDevice.prefix(shownRows) {
            table += "<tr class=\"oom-row\" data-device=\"\(escape(row.device))\" data-events=\"\(row.events)\""
            table += " data-killed=\"\(row.killed)\"><td><code>\(escape(row.device))</code></td>"
            table += "<td>\(escape(row.deviceName ?? "?"))</td><td class=\"n\">\(row.events)</td>"
            table += "<td class=\"n\">\(row.killed)</td></tr>\n"
        }
        out += scrolling(table + "</table>\n")
        if !oom.memoryLimits.isEmpty {
            var limitsTable = "<table id=\"memory-limits\">\n<tr><th>Device</th><th>OS</th><th>Build</th>"
            limitsTable +=
                "<th>Reports</th><th>Foreground limit MB (min / median / max)</th><th>Background limit MB</th></tr>\n"
            for row in oom.memoryLimits.prefix(shownRows) {
                limitsTable += "<tr><td>\(escape(row.name ?? row.product)) <code>\(escape(row.product))</code></td>"
                limitsTable += "<td>\(escape(row.osVersion ?? "?"))</td><td>\(escape(row.osBuild ?? "?"))</td>"
                limitsTable +=
                    "<td class=\"n\">\(row.reports)</td><td class=\"n\">\(limits(row.foregroundLimitMB))</td>"
                limitsTable += "<td class=\"n\">\(limits(row.backgroundLimitMB))</td></tr>\n"
            }
            out += "<h3>Memory limits</h3>\n" + scrolling(limitsTable + "</table>\n")
        }
        return out
    }

    /// MetricKit's memory kills per version, under the JetsamEvents, labelled by source.
    private static func memoryKillsSection(_ rows: [FleetSummary.MemoryKillsRow], underJetsam: Bool) -> String {
        guard !rows.isEmpty else { return "" }
        let level = underJetsam ? "h3" : "h2"
        let heading = "<\(level)>Memory kills by version (MetricKit)</\(level)>\n"
        var out = "<table id=\"memory-kills\">\n<tr><th>Source</th>"
        out += "<th>Version</th><th>Foreground memory-limit exits</th><th>Background memory-limit exits</th>"
        out += "<th>Memory exceptions</th></tr>\n"
        for row in rows.prefix(shownRows) {
            out +=
                "<tr class=\"memory-kills-row\" data-version=\"\(escape(row.version))\"><td>\(escape(row.source))</td>"
            out += "<td>\(escape(row.version))</td><td class=\"n\">\(row.foregroundMemoryLimitExits)</td>"
            out += "<td class=\"n\">\(row.backgroundMemoryLimitExits)</td>"
            out += "<td class=\"n\">\(row.memoryExceptionDiagnostics)</td></tr>\n"
        }
        return heading + scrolling(out + "</table>\n")
    }

    private static func metricKitSection(_ rows: [FleetSummary.MetricKitRow]) -> String {
        guard !rows.isEmpty else { return "" }
        var out = "<table id=\"metrickit\" class=\"wide\">\n<tr><th>Version</th><th>Exits</th>"
        out +=
            "<th>Exit reasons</th><th>Diagnostics</th><th>Hang s</th><th>Foreground h</th><th>Hang rate s/h</th>"
        out += "<th>Launches</th><th>First draw p50</th><th>p90</th></tr>\n"
        for row in rows.prefix(shownRows) {
            let exits = row.exitTotal
            let reasons = row.exitReasons()
            let diagnostics = row.diagnosticCounts
            out += "<tr class=\"metrickit-row\" data-version=\"\(escape(row.version))\" data-exits=\"\(exits)\">"
            out += "<td>\(escape(row.version))</td><td class=\"n\">\(exits)</td><td>\(escape(reasons))</td>"
            out += "<td>\(escape(diagnostics))</td><td class=\"n\">\(Formatting.oneDecimal(row.hangSeconds))</td>"
            out += "<td class=\"n\">\(Formatting.oneDecimal(row.foregroundSeconds / 3600))</td>"
            out += rateAndLaunchCells(row)
        }
        return "<h2>MetricKit by version</h2>\n" + scrolling(out + "</table>\n")
    }

    private static func metricKitDeviceSection(_ rows: [MetricKitFleetSummary.Row]) -> String {
        guard !rows.isEmpty else { return "" }
        var out = "<table id=\"metrickit-devices\">\n<tr><th>Device</th><th>Payloads</th><th>Exits</th>"
        out += "<th>Hang rate s/h</th><th>Launches</th><th>First draw p50</th><th>p90</th></tr>\n"
        for row in rows.prefix(shownRows) {
            let exits = row.exitTotal
            out += "<tr class=\"metrickit-device-row\" data-device=\"\(escape(row.name))\" data-exits=\"\(exits)\">"
            out += "<td><code>\(escape(row.name))</code></td><td class=\"n\">\(row.metricPayloads)</td>"
            out += "<td class=\"n\">\(exits)</td>" + rateAndLaunchCells(row)
        }
        return "<h2>MetricKit by device type</h2>\n" + scrolling(out + "</table>\n")
    }

    /// The hang rate and launch cells a MetricKit row ends with, by version or by device type alike.
    private static func rateAndLaunchCells(_ row: some MetricKitFigures) -> String {
        row.rateAndLaunchFigures.map { "<td class=\"n\">\($0)</td>" }.joined() + "</tr>\n"
    }

    private static func values(_ values: FleetSummary.Values, keeping pinned: String? = nil) -> String {
        escape(FleetReportTextRenderer.values(values, keeping: pinned))
    }

    private static func limits(_ value: LimitStatistics?) -> String {
        guard let value else { return "–" }
        return "\(value.min) / \(Formatting.median(value.median)) / \(value.max)"
    }

    /// Text for HTML element content and quoted attribute values; control characters shown as escapes first.
    package static func escape(_ text: String) -> String { HTMLText.escaped(text) }
}
