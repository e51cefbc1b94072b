import APMInspectCore
import FleetReport

/// The fleet report as text for a terminal, or as Markdown for a pull request or a wiki.
///
/// Both show the same tables; every string that came from a report is escaped (terminal controls shown as escapes,
/// Markdown's own characters neutralised).
package enum FleetReportTextRenderer {
    /// Rows shown per table: the JSON has them all.
    package static let shownRows = 30

    package enum Style {
        case text, markdown
    }

    package static func text(_ summary: FleetSummary) -> String { render(summary, style: .text) }

    package static func markdown(_ summary: FleetSummary) -> String { render(summary, style: .markdown) }

    private static func render(_ summary: FleetSummary, style: Style) -> String {
        var out = style == .markdown ? "# Fleet report\n\n" : "Fleet report: "
        out += headline(summary) + "\n"
        if let filters = filterLine(summary.filters) {
            out += (style == .markdown ? "\n" : "") + "Filters: " + cell(filters, style) + "\n"
        }
        out += inputsSection(summary, style: style)
        out += heading("Reports by kind", style)
        out += table(
            ["KIND", "COUNT"],
            right: [1],
            rows: kindRows(summary).map { [$0.name, Formatting.grouped($0.count)] },
            style: style
        )
        if summary.hangs.total > 0 {
            var line = "\(summary.hangs.total) hang(s), \(summary.hangs.recovered) recovered"
            if let longest = summary.hangs.longestSeconds {
                line += "; \(Formatting.oneDecimal(summary.hangs.totalSeconds)) s in all"
                line += ", the longest \(Formatting.oneDecimal(longest)) s"
            }
            out += afterTable(line, style)
        }
        let crashes = summary.crashes
        out += heading("Crash groups", style)
        if crashes.groups.isEmpty {
            out += "No crashes.\n"
        } else {
            out += table(
                ["COUNT", "SHARE", "SIGNATURE", "FIRST SEEN", "LAST SEEN", "VERSIONS", "OS", "DEVICES", "TOP FRAME"],
                right: [0, 1],
                rows: crashes.groups.prefix(shownRows).map { group in
                    [
                        Formatting.grouped(group.count), percent(group.share),
                        group.signature + (group.newInNewestVersion ? " (new)" : ""),
                        group.firstSeen.map(day) ?? "–", group.lastSeen.map(day) ?? "–",
                        values(group.appVersions, keeping: group.newestVersionSeen), values(group.osVersions),
                        values(group.devices), group.topFrame ?? "–",
                    ]
                },
                style: style
            )
            if crashes.groups.count > shownRows {
                out += afterTable("… \(crashes.groups.count - shownRows) more signatures (see --format json)", style)
            }
            if crashes.ungrouped > 0 {
                out += "\(crashes.ungrouped) crashes past the group limit are counted, not grouped.\n"
            }
            if crashes.duplicatesLinked > 0 {
                out +=
                    "\(Formatting.grouped(crashes.duplicatesLinked)) report(s) linked to another reporter's report of "
                    + "the same crash (\(Formatting.grouped(crashes.linkedCrashes)) crash(es)), each crash counted once.\n"
            }
            out += heading("Reports of each group", style)
            for group in crashes.groups.prefix(shownRows) {
                out +=
                    bullet(style) + cell(group.signature, style) + "  " + cell(group.app, style) + "  "
                    + cell(group.process, style) + "  " + cell(group.exception, style) + "\n"
                let indent = style == .markdown ? "  - " : "      "
                if let title = group.title { out += indent + "title: " + cell(title, style) + "\n" }
                if let rule = group.groupingRule {
                    out += indent + "grouped by the rule at line \(rule.line): " + cell(rule.text, style) + "\n"
                }
                out += indent + "representative: " + cell(group.representativeFile, style) + "\n"
                if group.duplicatesLinked > 0 { out += indent + linkedLine(group, style: style) + "\n" }
                for file in group.files { out += indent + cell(file, style) + "\n" }
                if group.moreFiles > 0 { out += indent + "+\(Formatting.grouped(group.moreFiles)) more file(s)\n" }
            }
        }
        out += newInReleaseSection(crashes, style: style)
        out += perDaySection(crashes, style: style)
        if summary.watchdog.total > 0 {
            out += heading("Watchdog terminations", style)
            out += table(
                ["COUNT", "REASON", "MAIN THREAD", "EXAMPLE"],
                right: [0],
                rows: summary.watchdog.rows.prefix(shownRows).map {
                    [Formatting.grouped($0.count), $0.reason, $0.verdict, $0.example]
                },
                style: style
            )
        }
        if summary.oom.events > 0 || !summary.oom.metricKitByVersion.isEmpty {
            out += heading("OOM kills by device", style)
            out += "\(summary.oom.killed) processes killed in \(summary.oom.events) JetsamEvents\n"
            out += (style == .markdown ? "\n" : "") + confirmedLine(summary.oom.confirmed) + "\n"
            out += style == .markdown ? "\n" : ""
            if summary.oom.events > 0 {
                out += table(
                    ["DEVICE", "NAME", "EVENTS", "KILLED"],
                    right: [2, 3],
                    rows: summary.oom.byDevice.prefix(shownRows).map {
                        [$0.device, $0.deviceName ?? "?", Formatting.grouped($0.events), Formatting.grouped($0.killed)]
                    },
                    style: style
                )
            }
            if !summary.oom.metricKitByVersion.isEmpty {
                out += heading("Memory kills by version (MetricKit, beside the JetsamEvents)", style)
                out += table(
                    ["SOURCE", "VERSION", "FG MEMORY LIMIT EXITS", "BG MEMORY LIMIT EXITS", "MEMORY EXCEPTIONS"],
                    right: [2, 3, 4],
                    rows: summary.oom.metricKitByVersion.prefix(shownRows).map {
                        [
                            $0.source, $0.version, Formatting.grouped($0.foregroundMemoryLimitExits),
                            Formatting.grouped($0.backgroundMemoryLimitExits),
                            Formatting.grouped($0.memoryExceptionDiagnostics),
                        ]
                    },
                    style: style
                )
                if summary.oom.metricKitByVersion.count > shownRows {
                    out += afterTable(
                        "… \(summary.oom.metricKitByVersion.count - shownRows) more versions (see --format json)",
                        style
                    )
                }
            }
            if !summary.oom.memoryLimits.isEmpty {
                out += heading("Memory limits", style)
                out +=
                    style == .markdown
                    ? MemoryLimitsRenderer.markdown(summary.oom.memoryLimits)
                    : MemoryLimitsRenderer.text(summary.oom.memoryLimits)
            }
        }
        if !summary.metricKit.isEmpty {
            out += heading("MetricKit by version", style)
            out += table(
                [
                    "VERSION", "EXITS", "TOP EXIT REASONS", "DIAGNOSTICS", "HANG s", "FOREGROUND h", "HANG RATE s/h",
                    "LAUNCHES", "FIRST DRAW p50", "p90",
                ],
                right: [1, 4, 5, 6, 7, 8, 9],
                rows: summary.metricKit.prefix(shownRows).map { row in
                    let exits = row.exitTotal
                    let reasons = row.exitReasons(atMost: 3)
                    let diagnostics = row.diagnosticCounts
                    return [
                        row.version, String(exits), reasons.isEmpty ? "–" : reasons,
                        diagnostics.isEmpty ? "–" : diagnostics, Formatting.oneDecimal(row.hangSeconds),
                        Formatting.oneDecimal(row.foregroundSeconds / 3600),
                    ] + row.rateAndLaunchFigures
                },
                style: style
            )
            if summary.metricKit.count > shownRows {
                out += afterTable("… \(summary.metricKit.count - shownRows) more versions (see --format json)", style)
            }
        }
        out += hangRateSection(summary.hangs, style: style)
        out += hangGroupsSection(summary.hangs, style: style)
        out += truthTableSection(summary.oom, style: style)
        out += resourceKillsSection(summary.resourceKills, style: style)
        let devices = summary.metricKitFleet.byDevice
        if !devices.isEmpty {
            out += heading("MetricKit by device type", style)
            out += table(
                ["DEVICE", "PAYLOADS", "EXITS", "HANG RATE s/h", "LAUNCHES", "FIRST DRAW p50", "p90"],
                right: [1, 2, 3, 4, 5, 6],
                rows: devices.prefix(shownRows).map { row in
                    [row.name, Formatting.grouped(row.metricPayloads), Formatting.grouped(row.exitTotal)]
                        + row.rateAndLaunchFigures
                },
                style: style
            )
            if devices.count > shownRows {
                out += afterTable("… \(devices.count - shownRows) more device types (see --format json)", style)
            }
        }
        if !summary.diagnostics.isEmpty {
            out += heading("Diagnostics", style)
            out += table(
                ["SEVERITY", "CODE", "FILE", "MESSAGE"],
                right: [],
                rows: summary.diagnostics.map {
                    [$0.diagnostic.severity.rawValue, $0.diagnostic.code.description, $0.file, $0.diagnostic.message]
                },
                style: style
            )
        } else if !summary.findings.isEmpty {
            out += heading("Findings", style)
            for finding in summary.findings { out += bullet(style) + cell(finding, style) + "\n" }
        }
        return out
    }

    /// A group's sources when some of its crashes came from several reporters: `sources: crashReport 1, …`.
    static func linkedLine(_ group: FleetSummary.CrashGroup, style: Style) -> String {
        let sources = group.sources.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
            cell($0.key, style) + " " + Formatting.grouped($0.value)
        }
        return "sources: " + sources.joined(separator: ", ") + " (\(Formatting.grouped(group.duplicatesLinked)) linked "
            + "to another report of \(Formatting.grouped(group.linkedCrashes)) crash(es))"
    }

    /// When the report was made and from what: reports read by kind, and the files skipped with the reason.
    private static func inputsSection(_ summary: FleetSummary, style: Style) -> String {
        var out = heading("Inputs", style)
        out += generatedLine(summary) + "\n"
        out += style == .markdown ? "\n" : ""
        out += table(
            ["FILE KIND", "REPORTS"],
            right: [1],
            rows: inputKinds(summary.inputs).map { [$0.kind, Formatting.grouped($0.count)] },
            style: style
        )
        let inputs = summary.inputs
        guard inputs.skippedFiles > 0 else { return out + afterTable("No file skipped.", style) }
        out += afterTable("\(Formatting.grouped(inputs.skippedFiles)) file(s) skipped:", style)
        out += style == .markdown ? "\n" : ""
        out += table(
            ["FILE", "KIND", "REASON"],
            right: [],
            rows: inputs.skipped.prefix(shownRows).map { [$0.file, $0.kind, $0.reason] },
            style: style
        )
        let listed = min(shownRows, inputs.skipped.count)
        if inputs.skippedFiles > listed {
            out += afterTable(
                "… \(Formatting.grouped(inputs.skippedFiles - listed)) more skipped (see --format json)",
                style
            )
        }
        return out
    }

    /// The line that says when the report was made and from how many reports.
    ///
    /// `Generated 2024-06-01T12:00:00Z from 64 report(s), 3 skipped.`
    package static func generatedLine(_ summary: FleetSummary) -> String {
        var line = summary.generatedAt.map { "Generated \($0) from " } ?? "Made from "
        line += "\(Formatting.grouped(summary.inputs.reports)) report(s)"
        if summary.inputs.ndjsonEnvelopes > 0 {
            line += " (\(Formatting.grouped(summary.inputs.ndjsonEnvelopes)) from NDJSON)"
        }
        line += ", \(Formatting.grouped(summary.inputs.skippedFiles)) skipped."
        return line
    }

    /// Reports read by file kind, most first, then by name.
    package static func inputKinds(_ inputs: FleetSummary.Inputs) -> [(kind: String, count: Int)] {
        inputs.kinds.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `Confirmed OOMs (reported by the OS): 3 (jetsamEvent 2, metrickit 1)`.
    package static func confirmedLine(_ confirmed: FleetSummary.ConfirmedOOMs) -> String {
        var line = "Confirmed OOMs (reported by the OS): \(Formatting.grouped(confirmed.count))"
        let sources = confirmed.sources.sorted { $0.key < $1.key }.map { "\($0.key) \(Formatting.grouped($0.value))" }
        if !sources.isEmpty { line += " (" + sources.joined(separator: ", ") + ")" }
        return line
    }

    /// Each app's newest version and the groups first seen in it.
    private static func newInReleaseSection(_ crashes: FleetSummary.Crashes, style: Style) -> String {
        guard !crashes.newestVersionByApp.isEmpty else { return "" }
        var out = heading("New in the newest version of each app", style)
        let rows = newInRelease(crashes)
        out += table(
            ["APP", "NEWEST VERSION", "NEW GROUPS"],
            right: [2],
            rows: rows.prefix(shownRows).map { [$0.app, $0.version, Formatting.grouped($0.groups.count)] },
            style: style
        )
        if rows.count > shownRows {
            out += afterTable("… \(rows.count - shownRows) more apps (see --format json)", style)
        }
        let groups = crashes.groups.filter(\.newInNewestVersion)
        guard !groups.isEmpty else {
            return out + afterTable("No crash group first appears in a newest version.", style)
        }
        out += afterTable("Groups first seen in their app's newest version:", style)
        out += style == .markdown ? "\n" : ""
        for group in groups.prefix(shownRows) {
            out +=
                bullet(style) + cell(group.signature, style) + "  " + cell(group.app, style) + " "
                + cell(group.appNewestVersion ?? "?", style) + "  \(Formatting.grouped(group.count)) crash(es)  "
                + cell(group.topFrame ?? "–", style) + "\n"
        }
        if groups.count > shownRows { out += "… \(groups.count - shownRows) more new groups (see --format json)\n" }
        return out
    }

    /// Apps by name with their newest version and the groups new in it.
    package static func newInRelease(
        _ crashes: FleetSummary.Crashes
    ) -> [(app: String, version: String, groups: [FleetSummary.CrashGroup])] {
        var byApp: [String: [FleetSummary.CrashGroup]] = [:]
        for group in crashes.groups where group.newInNewestVersion { byApp[group.app, default: []].append(group) }
        return crashes.newestVersionByApp.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
            ($0.key, $0.value, byApp[$0.key] ?? [])
        }
    }

    /// Crashes per UTC day of the top groups: the days with crashes, newest last.
    private static func perDaySection(_ crashes: FleetSummary.Crashes, style: Style) -> String {
        guard !crashes.perDay.isEmpty else { return "" }
        var out = heading("Crashes per day, top groups", style)
        out += table(
            ["SIGNATURE", "DAYS", "CRASHES", "BY DAY (UTC, the newest 14 days with crashes)"],
            right: [1, 2],
            rows: crashes.perDay.map { series in
                let total = series.days.reduce(series.earlier) { sum, day in
                    let (added, overflow) = sum.addingReportingOverflow(day.count)
                    return overflow ? Int.max : added
                }
                var days = series.days.suffix(14).map { "\($0.day) \($0.count)" }
                let older = series.days.count - min(14, series.days.count)
                if older > 0 { days.insert("+\(older) earlier day(s)", at: 0) }
                if series.earlier > 0 { days.insert("\(series.earlier) crash(es) on older days", at: 0) }
                return [
                    series.signature, Formatting.grouped(series.days.count), Formatting.grouped(total),
                    days.joined(separator: ", "),
                ]
            },
            style: style
        )
        return out
    }

    package static func headline(_ summary: FleetSummary) -> String {
        var parts = ["\(Formatting.grouped(summary.inputs.reports)) report(s)"]
        let crashes = summary.crashes
        parts.append("\(Formatting.grouped(crashes.total)) crash(es) in \(crashes.signatures) signature(s)")
        parts.append("\(summary.watchdog.total) watchdog termination(s)")
        parts.append("\(summary.oom.killed) OOM kill(s) in \(summary.oom.events) JetsamEvent(s)")
        if summary.inputs.excluded > 0 { parts.append("\(summary.inputs.excluded) left out by the filters") }
        if summary.inputs.unreadable > 0 { parts.append("\(summary.inputs.unreadable) unreadable") }
        if summary.inputs.rejectedLines > 0 { parts.append("\(summary.inputs.rejectedLines) NDJSON line(s) rejected") }
        return parts.joined(separator: "; ")
    }

    /// The categories in a fixed order, with the names the text and HTML reports give them.
    package static func kindRows(_ summary: FleetSummary) -> [(name: String, id: String, count: Int)] {
        let counts = summary.categories
        return [
            ("Crashes", "crashes", counts.crashes), ("Hangs", "hangs", counts.hangs),
            ("Watchdog terminations", "watchdog-terminations", counts.watchdogTerminations),
            ("Out of memory", "out-of-memory", counts.outOfMemory),
            ("Resource kills", "resource-kills", counts.resourceKills), ("Profiles", "profiles", counts.profiles),
            ("Resource warnings", "resource-warnings", counts.resourceWarnings),
            ("System watchdogs", "system-watchdogs", counts.systemWatchdogs),
            ("System memory kills", "system-memory-kills", counts.systemMemoryKills),
        ]
    }

    package static func filterLine(_ filters: FleetSummary.Filters) -> String? {
        let parts = [
            filters.since.map { "since \($0)" }, filters.app.map { "app \($0)" },
            filters.version.map { "version \($0)" }, filters.grouping.map { "grouping rules \($0)" },
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `0.4167` → `41.7 %`.
    package static func percent(_ share: Double) -> String { Formatting.oneDecimal(share * 100) + " %" }

    /// The day of an ISO 8601 time, as written (the report's own offset).
    package static func day(_ iso: String) -> String { String(iso.prefix(10)) }

    /// Values a cell shows at most.
    package static let shownValues = 3

    /// The values a cell shows: the most frequent, and `keeping` (the newest version) even when it is rare.
    package static func shown(_ values: FleetSummary.Values, keeping pinned: String? = nil) -> [CappedCounts.Entry] {
        var listed = Array(values.values.prefix(shownValues))
        if let pinned, !listed.contains(where: { $0.value == pinned }),
            let entry = values.values.first(where: { $0.value == pinned })
        {
            listed = Array(listed.prefix(shownValues - 1)) + [entry]
        }
        return listed
    }

    /// Distinct values a cell does not show: listed ones left out and those outside the list.
    package static func hiddenValues(_ values: FleetSummary.Values, shown: Int) -> Int {
        max(0, values.values.count - shown) + max(0, values.othersValues)
    }

    /// The top values with their counts (and `keeping`, the newest version), then `+N more` for the N distinct
    /// values not shown.
    package static func values(_ values: FleetSummary.Values, keeping pinned: String? = nil) -> String {
        let listed = shown(values, keeping: pinned)
        var parts = listed.map { "\($0.value) (\($0.count))" }
        let hidden = hiddenValues(values, shown: listed.count)
        if hidden > 0 { parts.append("+\(Formatting.grouped(hidden)) more") }
        return parts.joined(separator: ", ")
    }

    static func heading(_ title: String, _ style: Style) -> String {
        style == .markdown ? "\n## \(title)\n\n" : "\n\(title)\n"
    }

    /// A line of text right under a table: Markdown needs a blank line first, or the line is read as one more row
    /// of the table (GitHub's tables end only at a blank line or another block).
    static func afterTable(_ line: String, _ style: Style) -> String {
        (style == .markdown ? "\n" : "") + line + "\n"
    }

    static func bullet(_ style: Style) -> String { style == .markdown ? "- " : "  " }

    /// A string from a report, made safe for the style (escaped for the terminal; and for Markdown, its syntax).
    package static func cell(_ text: String, _ style: Style) -> String {
        style == .markdown ? MarkdownText.escaped(text) : TerminalText.escaped(text)
    }

    static func table(_ headers: [String], right: Set<Int>, rows: [[String]], style: Style) -> String {
        switch style {
        case .text:
            var table = TextTable(
                headers: headers,
                alignments: headers.indices.map { right.contains($0) ? .right : .left }
            )
            for row in rows { table.append(row) }
            return table.render(indent: "  ")
        case .markdown:
            var out = "| " + headers.joined(separator: " | ") + " |\n"
            out += "|" + headers.indices.map { right.contains($0) ? " ---: |" : " --- |" }.joined() + "\n"
            for row in rows { out += "| " + row.map { cell($0, .markdown) }.joined(separator: " | ") + " |\n" }
            return out
        }
    }
}
