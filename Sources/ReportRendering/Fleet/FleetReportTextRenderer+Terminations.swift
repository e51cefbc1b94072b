import APMInspectCore
import FleetReport

extension FleetReportTextRenderer {
    /// `3 (jetsamEvent 2, metrickit 1)`, or `–` for none: a count is never shown without its sources.
    package static func sourceCounts(_ counts: FleetSummary.SourceCounts) -> String {
        guard counts.count > 0 else { return "–" }
        let sources = counts.sources.sorted { $0.key < $1.key }.map { "\($0.key) \(Formatting.grouped($0.value))" }
        return Formatting.grouped(counts.count) + " (" + sources.joined(separator: ", ") + ")"
    }

    /// `uuid 2, name 1`: how a row's JetsamEvent kills were tied to it, `–` when it has none.
    package static func links(_ links: FleetSummary.JetsamLinks) -> String {
        let parts = [("uuid", links.uuid), ("name", links.name), ("none", links.none)].filter { $0.1 > 0 }
        return parts.isEmpty ? "–" : parts.map { "\($0.0) \(Formatting.grouped($0.1))" }.joined(separator: ", ")
    }

    /// A memory limit in MB as the memory-limit table prints it (`1450`, `1449.5`), `–` when unknown.
    package static func limit(_ value: Double?) -> String {
        guard let value else { return "–" }
        if let whole = Int64(exactly: value) { return String(whole) }
        return Formatting.oneDecimal(value)
    }

    /// `cpu 3, diskWrites 1`.
    package static func kinds(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \(Formatting.grouped($0.value))" }.joined(separator: ", ")
    }

    static func truthTableSection(_ oom: FleetSummary.OOM, style: Style) -> String {
        guard !oom.byVersionAndDevice.isEmpty || oom.unlinkedKills > 0 else { return "" }
        var out = heading("OOM truth table (per app, version and device)", style)
        out += table(
            ["APP", "VERSION", "DEVICE", "CONFIRMED", "INFERRED", "OTHER TERMINATIONS", "LIMIT MB", "JETSAM LINK"],
            right: [6],
            rows: oom.byVersionAndDevice.prefix(shownRows).map { row in
                [
                    row.app, row.version, row.device, sourceCounts(row.confirmed), sourceCounts(row.inferred),
                    sourceCounts(row.otherTerminations), limit(row.memoryLimitMB), links(row.jetsamLinks),
                ]
            },
            style: style
        )
        var notes: [String] = []
        if oom.byVersionAndDevice.count > shownRows {
            notes.append("… \(oom.byVersionAndDevice.count - shownRows) more rows (see --format json)")
        }
        if oom.unlinkedKills > 0 {
            notes.append(
                "\(Formatting.grouped(oom.unlinkedKills)) JetsamEvent kill(s) of other apps, not at their own limit "
                    + "and tied to no report, are left out"
            )
        }
        if oom.byVersionAndDeviceUngrouped > 0 {
            notes.append("\(Formatting.grouped(oom.byVersionAndDeviceUngrouped)) past the row limit are in no row")
        }
        for (index, note) in notes.enumerated() {
            out += index == 0 ? afterTable(note, style) : note + "\n"
        }
        return out
    }

    static func resourceKillsSection(_ kills: FleetSummary.ResourceKills, style: Style) -> String {
        guard kills.total > 0 else { return "" }
        var out = heading("Resource kills and warnings by heaviest stack", style)
        out += "\(Formatting.grouped(kills.total)) report(s), \(Formatting.grouped(kills.fatal)) fatal: "
        out += cell(kinds(kills.byKind), style) + "\n" + (style == .markdown ? "\n" : "")
        let groups = kills.groups.prefix(shownRows)
        switch style {
        case .markdown:
            out += table(
                ["COUNT", "FATAL", "KIND", "APP", "VERSIONS", "SOURCES", "HEAVIEST STACK", "EXAMPLE"],
                right: [0, 1],
                rows: groups.map { group in
                    [
                        Formatting.grouped(group.count), Formatting.grouped(group.fatal), group.kind, group.app,
                        values(group.byVersion), kinds(group.sources), group.signature, group.files.first ?? "–",
                    ]
                },
                style: style
            )
        case .text:
            // The stack is what a group is: in a terminal it gets a line of its own under the group's figures
            // rather than a column squeezed beside six others (shortened in the middle only past the width).
            out += table(
                ["#", "COUNT", "FATAL", "KIND", "APP", "VERSIONS", "SOURCES"],
                right: [0, 1, 2],
                rows: groups.enumerated().map { index, group in
                    [
                        String(index + 1), Formatting.grouped(group.count), Formatting.grouped(group.fatal),
                        group.kind, group.app, values(group.byVersion), kinds(group.sources),
                    ]
                },
                style: style
            )
            for (index, group) in groups.enumerated() {
                out += "  #\(index + 1)  " + cell(group.signature, style) + "\n"
                if let file = group.files.first { out += "      e.g. " + cell(file, style) + "\n" }
            }
        }
        if kills.groups.count > shownRows {
            out += afterTable("… \(kills.groups.count - shownRows) more groups (see --format json)", style)
        }
        if kills.ungrouped > 0 {
            out += "\(Formatting.grouped(kills.ungrouped)) report(s) past the group limit are counted, not grouped.\n"
        }
        return out
    }

    static func hangRateSection(_ hangs: FleetSummary.Hangs, style: Style) -> String {
        guard !hangs.rateByVersion.isEmpty else { return "" }
        var out = heading("Hang rate by version (MetricKit)", style)
        out += table(
            ["APP", "VERSION", "PAYLOADS", "HANG s", "FOREGROUND h", "HANG RATE s/h"],
            right: [2, 3, 4, 5],
            rows: hangs.rateByVersion.prefix(shownRows).map { row in
                [
                    row.app, row.version, Formatting.grouped(row.metricPayloads),
                    Formatting.oneDecimal(row.hangSeconds),
                    Formatting.oneDecimal(row.foregroundSeconds / 3600),
                    row.hangSecondsPerHour.map(Formatting.oneDecimal) ?? "–",
                ]
            },
            style: style
        )
        if hangs.rateByVersion.count > shownRows {
            out += afterTable("… \(hangs.rateByVersion.count - shownRows) more versions (see --format json)", style)
        }
        return out
    }
}
