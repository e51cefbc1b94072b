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
            body{font:14px/1.4 -apple-system,system-ui,sans-serif;margin:2em;color:#222}
            table{border-collapse:collapse;margin:.5em 0 1.5em}
            th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
            td.n{text-align:right;font-variant-numeric:tabular-nums}
            code{font:12px ui-monospace,monospace}
            .muted{color:#777}
            svg text{font:11px sans-serif;fill:#333}
            </style>
            </head>
            <body>
            <h1>Fleet report</h1>

            """
        out += "<p id=\"headline\">\(escape(FleetReportTextRenderer.headline(summary)))</p>\n"
        if let filters = FleetReportTextRenderer.filterLine(summary.filters) {
            out += "<p>Filters: \(escape(filters))</p>\n"
        }
        out += kindSection(summary)
        out += crashSection(summary.crashes)
        out += watchdogSection(summary.watchdog)
        out += oomSection(summary.oom)
        out += memoryKillsSection(summary.oom.metricKitByVersion, underJetsam: summary.oom.events > 0)
        out += metricKitSection(summary.metricKit)
        if !summary.findings.isEmpty {
            out += "<h2>Findings</h2>\n<ul>\n"
            for finding in summary.findings { out += "<li>\(escape(finding))</li>\n" }
            out += "</ul>\n"
        }
        out += "</body>\n</html>\n"
        return out
    }

    private static func crashSection(_ crashes: FleetSummary.Crashes) -> String {
        var out = "<h2>Crash groups</h2>\n"
        out += "<p><span id=\"crash-total\" data-count=\"\(crashes.total)\">\(crashes.total)</span> crash(es) in "
        out += "<span id=\"crash-signatures\" data-count=\"\(crashes.signatures)\">\(crashes.signatures)</span> "
        out += "signature(s).</p>\n"
        if !crashes.perDay.isEmpty { out += perDayChart(crashes.perDay) }
        guard !crashes.groups.isEmpty else { return out }
        out += "<table id=\"crash-groups\">\n<tr><th>Count</th><th>Share</th><th>Signature</th><th>First seen</th>"
        out += "<th>Last seen</th><th>App versions</th><th>OS versions</th><th>Devices</th><th>Top frame</th>"
        out += "<th>Process</th><th>Exception</th><th>Representative file</th></tr>\n"
        for group in crashes.groups.prefix(shownRows) {
            out +=
                "<tr class=\"crash-group\" data-signature=\"\(escape(group.signature))\" data-count=\"\(group.count)\""
            out += " data-share=\"\(group.share)\">"
            out +=
                "<td class=\"n\">\(group.count)</td><td class=\"n\">\(FleetReportTextRenderer.percent(group.share))</td>"
            out += "<td><code>\(escape(group.signature))</code>"
            if group.newInNewestVersion { out += " <strong>new</strong>" }
            out += "</td><td>\(escape(group.firstSeen ?? "–"))</td><td>\(escape(group.lastSeen ?? "–"))</td>"
            out += "<td>\(values(group.appVersions))</td><td>\(values(group.osVersions))</td>"
            out += "<td>\(values(group.devices))</td><td><code>\(escape(group.topFrame ?? "–"))</code></td>"
            out += "<td>\(escape(group.process))</td><td>\(escape(group.exception))</td>"
            out += "<td><code>\(escape(group.representativeFile))</code></td></tr>\n"
        }
        out += "</table>\n"
        if crashes.groups.count > shownRows {
            out += "<p class=\"muted\">\(crashes.groups.count - shownRows) more signatures in the JSON report.</p>\n"
        }
        if let newest = crashes.newestVersion {
            out += "<h3>New in the newest version (\(escape(newest)))</h3>\n"
            if crashes.newInNewestVersion.isEmpty {
                out += "<p>No crash group first appears in it.</p>\n"
            } else {
                out += "<ul id=\"new-in-newest\">\n"
                for signature in crashes.newInNewestVersion.prefix(shownRows) {
                    out += "<li><code>\(escape(signature))</code></li>\n"
                }
                out += "</ul>\n"
            }
        }
        return out
    }

    /// One row of bars per top group over the days any of them crashed (the newest 90), with a legend.
    private static func perDayChart(_ series: [FleetSummary.DaySeries]) -> String {
        let allDays = Set(series.flatMap { $0.days.map(\.day) }).sorted().suffix(90)
        guard !allDays.isEmpty else { return "" }
        let days = Array(allDays)
        let rowHeight = 50
        let left = 150
        let barWidth = max(2, min(16, 720 / days.count))
        let width = left + barWidth * days.count + 20
        let height = rowHeight * series.count + 30
        let peak = max(1, series.flatMap { $0.days.map(\.count) }.max() ?? 1)
        var out = "<h3>Crashes per day, top groups</h3>\n"
        out += "<svg id=\"crashes-per-day\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" "
        out += "height=\"\(height)\" role=\"img\" aria-label=\"Crashes per day for the top crash groups\">\n"
        for (row, item) in series.enumerated() {
            let color = palette[row % palette.count]
            let base = rowHeight * (row + 1)
            let label = item.signature.prefix(16)
            out += "<text x=\"0\" y=\"\(base - 4)\" fill=\"\(color)\">\(escape(String(label)))</text>\n"
            out += "<line x1=\"\(left)\" y1=\"\(base)\" x2=\"\(width - 20)\" y2=\"\(base)\" stroke=\"#ccc\"/>\n"
            let counts = Dictionary(item.days.map { ($0.day, $0.count) }, uniquingKeysWith: +)
            for (column, day) in days.enumerated() {
                guard let count = counts[day], count > 0 else { continue }
                let barHeight = max(1, (rowHeight - 8) * count / peak)
                out += "<rect class=\"day\" data-signature=\"\(escape(item.signature))\" data-day=\"\(escape(day))\""
                out += " data-count=\"\(count)\" x=\"\(left + column * barWidth)\" y=\"\(base - barHeight)\""
                out += " width=\"\(max(1, barWidth - 1))\" height=\"\(barHeight)\" fill=\"\(color)\">"
                out += "<title>\(escape(day)): \(count)</title></rect>\n"
            }
        }
        out += "<text x=\"\(left)\" y=\"\(height - 6)\">\(escape(days[0]))</text>\n"
        out +=
            "<text x=\"\(width - 20)\" y=\"\(height - 6)\" text-anchor=\"end\">\(escape(days[days.count - 1]))</text>\n"
        out += "</svg>\n"
        return out
    }

    private static func kindSection(_ summary: FleetSummary) -> String {
        var out = "<h2>Reports by kind</h2>\n<table id=\"kinds\">\n<tr><th>Kind</th><th>Count</th></tr>\n"
        for row in FleetReportTextRenderer.kindRows(summary) {
            out += "<tr id=\"kind-\(row.id)\" data-count=\"\(row.count)\"><td>\(row.name)</td>"
            out += "<td class=\"n\">\(row.count)</td></tr>\n"
        }
        return out + "</table>\n"
    }

    private static func watchdogSection(_ watchdog: FleetSummary.Watchdog) -> String {
        guard watchdog.total > 0 else { return "" }
        var out = "<h2>Watchdog terminations</h2>\n<p>\(watchdog.total) termination(s).</p>\n"
        out += "<table id=\"watchdog\">\n<tr><th>Count</th><th>Reason</th><th>Main thread</th><th>Example</th></tr>\n"
        for row in watchdog.rows.prefix(shownRows) {
            out +=
                "<tr class=\"watchdog-row\" data-reason=\"\(escape(row.reason))\" data-verdict=\"\(escape(row.verdict))\""
            out += " data-count=\"\(row.count)\"><td class=\"n\">\(row.count)</td><td>\(escape(row.reason))</td>"
            out += "<td>\(escape(row.verdict))</td><td><code>\(escape(row.example))</code></td></tr>\n"
        }
        return out + "</table>\n"
    }

    private static func oomSection(_ oom: FleetSummary.OOM) -> String {
        guard oom.events > 0 else { return "" }
        var out = "<h2>OOM kills by device</h2>\n"
        out += "<p><span id=\"oom-killed\" data-count=\"\(oom.killed)\">\(oom.killed)</span> process(es) killed in "
        out += "<span id=\"oom-events\" data-count=\"\(oom.events)\">\(oom.events)</span> JetsamEvent(s).</p>\n"
        let rows = Array(oom.byDevice.prefix(15))
        let peak = max(1, rows.map(\.killed).max() ?? 1)
        let left = 220
        let width = left + 400 + 60
        out += "<svg id=\"oom-by-device\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" "
        out += "height=\"\(rows.count * 22 + 10)\" role=\"img\" aria-label=\"OOM kills by device\">\n"
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
        out += "<table id=\"oom\">\n<tr><th>Device</th><th>Name</th><th>JetsamEvents</th><th>Killed</th></tr>\n"
        for row in oom.byDevice.prefix(shownRows) {
            out += "<tr class=\"oom-row\" data-device=\"\(escape(row.device))\" data-events=\"\(row.events)\""
            out += " data-killed=\"\(row.killed)\"><td><code>\(escape(row.device))</code></td>"
            out += "<td>\(escape(row.deviceName ?? "?"))</td><td class=\"n\">\(row.events)</td>"
            out += "<td class=\"n\">\(row.killed)</td></tr>\n"
        }
        out += "</table>\n"
        if !oom.memoryLimits.isEmpty {
            out += "<h3>Memory limits</h3>\n<table id=\"memory-limits\">\n<tr><th>Device</th><th>OS</th><th>Build</th>"
            out +=
                "<th>Reports</th><th>Foreground limit MB (min / median / max)</th><th>Background limit MB</th></tr>\n"
            for row in oom.memoryLimits.prefix(shownRows) {
                out += "<tr><td>\(escape(row.name ?? row.product)) <code>\(escape(row.product))</code></td>"
                out += "<td>\(escape(row.osVersion ?? "?"))</td><td>\(escape(row.osBuild ?? "?"))</td>"
                out += "<td class=\"n\">\(row.reports)</td><td class=\"n\">\(limits(row.foregroundLimitMB))</td>"
                out += "<td class=\"n\">\(limits(row.backgroundLimitMB))</td></tr>\n"
            }
            out += "</table>\n"
        }
        return out
    }

    /// MetricKit's memory kills per version, under the JetsamEvents, labelled by source.
    private static func memoryKillsSection(_ rows: [FleetSummary.MemoryKillsRow], underJetsam: Bool) -> String {
        guard !rows.isEmpty else { return "" }
        let level = underJetsam ? "h3" : "h2"
        var out = "<\(level)>Memory kills by version (MetricKit)</\(level)>\n"
        out += "<table id=\"memory-kills\">\n<tr><th>Source</th>"
        out += "<th>Version</th><th>Foreground memory-limit exits</th><th>Background memory-limit exits</th>"
        out += "<th>Memory exceptions</th></tr>\n"
        for row in rows.prefix(shownRows) {
            out +=
                "<tr class=\"memory-kills-row\" data-version=\"\(escape(row.version))\"><td>\(escape(row.source))</td>"
            out += "<td>\(escape(row.version))</td><td class=\"n\">\(row.foregroundMemoryLimitExits)</td>"
            out += "<td class=\"n\">\(row.backgroundMemoryLimitExits)</td>"
            out += "<td class=\"n\">\(row.memoryExceptionDiagnostics)</td></tr>\n"
        }
        return out + "</table>\n"
    }

    private static func metricKitSection(_ rows: [FleetSummary.MetricKitRow]) -> String {
        guard !rows.isEmpty else { return "" }
        var out = "<h2>MetricKit by version</h2>\n<table id=\"metrickit\">\n<tr><th>Version</th><th>Exits</th>"
        out +=
            "<th>Exit reasons</th><th>Diagnostics</th><th>Hang s</th><th>Foreground h</th><th>Hang rate s/h</th>"
        out += "<th>Launches</th><th>First draw p50</th><th>p90</th></tr>\n"
        for row in rows.prefix(shownRows) {
            let exits = row.exits.values.reduce(Int64(0)) { $0.addingReportingOverflow($1).partialValue }
            let reasons = row.exits.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .filter { $0.value > 0 }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let diagnostics = row.diagnostics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
            out += "<tr class=\"metrickit-row\" data-version=\"\(escape(row.version))\" data-exits=\"\(exits)\">"
            out += "<td>\(escape(row.version))</td><td class=\"n\">\(exits)</td><td>\(escape(reasons))</td>"
            out += "<td>\(escape(diagnostics))</td><td class=\"n\">\(Formatting.oneDecimal(row.hangSeconds))</td>"
            out += "<td class=\"n\">\(Formatting.oneDecimal(row.foregroundSeconds / 3600))</td>"
            out += "<td class=\"n\">\(row.hangRate.map(Formatting.oneDecimal) ?? "–")</td>"
            out += "<td class=\"n\">\(row.launch.map { Formatting.grouped($0.count) } ?? "–")</td>"
            out += "<td class=\"n\">\(row.launch?.p50Seconds.map(ScanRenderer.milliseconds) ?? "–")</td>"
            out += "<td class=\"n\">\(row.launch?.p90Seconds.map(ScanRenderer.milliseconds) ?? "–")</td></tr>\n"
        }
        return out + "</table>\n"
    }

    private static func values(_ values: FleetSummary.Values) -> String {
        escape(FleetReportTextRenderer.values(values))
    }

    private static func limits(_ value: LimitStatistics?) -> String {
        guard let value else { return "–" }
        return "\(value.min) / \(Formatting.median(value.median)) / \(value.max)"
    }

    /// Text for HTML element content and quoted attribute values; control characters shown as escapes first.
    package static func escape(_ text: String) -> String { HTMLText.escaped(text) }
}
