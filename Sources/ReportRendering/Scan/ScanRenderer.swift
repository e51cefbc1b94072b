import APMInspectCore
import FleetReport
import JetsamParsing

/// The human inventory of a scan.
package enum ScanRenderer {
    /// Rows shown per MetricKit table: the JSON has them all.
    package static let shownMetricKitRows = 20

    package static func render(_ inventory: ScanInventory, metricKit: MetricKitFleetSummary = MetricKitFleetSummary())
        -> String
    {
        var out = "Scan: \(summaryLine(inventory))\n"
        if !inventory.kinds.isEmpty {
            out += "\nReports by kind\n"
            for (kind, count) in inventory.kinds.sorted(by: {
                $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key)
            }) {
                out += "  \(Formatting.grouped(count))\t\(kind)\n"
            }
        }
        if !inventory.crashGroups.isEmpty {
            out += "\nCrashes by signature\n"
            var table = TextTable(
                headers: ["COUNT", "SIGNATURE", "PROCESS", "EXCEPTION", "TOP FRAME"],
                alignments: [.right, .left, .left, .left, .left]
            )
            for group in inventory.crashGroups.prefix(30) {
                table.append([
                    String(group.count), group.signature, group.process, group.exception, group.topFrame ?? "",
                ])
            }
            out += table.render(indent: "  ")
            if inventory.crashGroups.count > 30 { out += "  … \(inventory.crashGroups.count - 30) more signatures\n" }
        }
        if !inventory.watchdogKills.isEmpty {
            out += "\nWatchdog and OS kills\n"
            for kill in inventory.watchdogKills.prefix(30) {
                out += "  \(TerminalText.escaped(kill.summary))\n"
                if let main = kill.mainThread { out += "    main thread: \(TerminalText.escaped(main))\n" }
                out += "    \(TerminalText.escaped(kill.file))\n"
            }
        }
        if inventory.oomKills > 0 || !inventory.memoryLimits.isEmpty {
            out +=
                "\nOOM kills: \(inventory.oomKills) killed processes in \(inventory.oomEvents) JetsamEvents\n"
            if !inventory.memoryLimits.isEmpty { out += MemoryLimitsRenderer.text(inventory.memoryLimits) }
        }
        if !metricKit.isEmpty { out += render(metricKit) }
        for (file, apps) in inventory.energy.sorted(by: { $0.key < $1.key }) {
            out += "\nEnergy: top apps in \(TerminalText.escaped(file))\n"
            for app in apps { out += "  \(app)\n" }
        }
        if !inventory.archiveFindings.isEmpty {
            out += "\nArchive findings\n"
            for finding in inventory.archiveFindings.prefix(50) { out += "  \(finding)\n" }
        }
        if !inventory.unreadable.isEmpty {
            out += "\nCould not be read (\(inventory.unreadable.count))\n"
            for item in inventory.unreadable.prefix(50) { out += "  \(item.reason)\n" }
        }
        return out
    }

    /// The MetricKit fleet view: exits by reason, diagnostics by type, and per version and device type the hang
    /// rate and time to first draw.
    package static func render(_ fleet: MetricKitFleetSummary) -> String {
        let diagnostics = fleet.diagnostics.values.reduce(0) { $0.addingReportingOverflow($1).partialValue }
        var out = "\nMetricKit: \(Formatting.grouped(fleet.metricPayloads)) metric payload(s)"
        out += ", \(Formatting.grouped(diagnostics)) diagnostic(s)"
        if let rate = fleet.hangRate { out += "; hang rate \(Formatting.oneDecimal(rate)) s/h" }
        if let launch = fleet.launch { out += "; first draw " + launchText(launch) }
        out += "\n"
        if !fleet.exits.isEmpty {
            out += "\nMetricKit exits by reason\n"
            var table = TextTable(
                headers: ["REASON", "FOREGROUND", "BACKGROUND"],
                alignments: [.left, .right, .right]
            )
            var foreground: Int64 = 0
            var background: Int64 = 0
            for row in fleet.exits {
                table.append([row.label, Formatting.grouped(row.foreground), Formatting.grouped(row.background)])
                foreground = foreground.addingReportingOverflow(row.foreground).partialValue
                background = background.addingReportingOverflow(row.background).partialValue
            }
            table.append(["total", Formatting.grouped(foreground), Formatting.grouped(background)])
            out += table.render(indent: "  ")
        }
        if !fleet.diagnostics.isEmpty {
            out += "\nMetricKit diagnostics by type\n"
            var table = TextTable(headers: ["COUNT", "TYPE"], alignments: [.right, .left])
            for (kind, count) in fleet.diagnostics.sorted(by: {
                $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
            }) {
                table.append([Formatting.grouped(count), diagnosticLabel(kind)])
            }
            out += table.render(indent: "  ")
        }
        out += rowsTable("MetricKit by app version", "VERSION", fleet.byVersion, ungrouped: fleet.ungroupedVersions)
        out += rowsTable("MetricKit by device type", "DEVICE", fleet.byDevice, ungrouped: fleet.ungroupedDevices)
        return out
    }

    private static func rowsTable(
        _ title: String,
        _ header: String,
        _ rows: [MetricKitFleetSummary.Row],
        ungrouped: Int
    ) -> String {
        guard !rows.isEmpty else { return "" }
        var out = "\n\(title)\n"
        var table = TextTable(
            headers: [
                header, "PAYLOADS", "EXITS", "HANG RATE s/h", "LAUNCHES", "FIRST DRAW p50", "p90", "DIAGNOSTICS",
            ],
            alignments: [.left, .right, .right, .right, .right, .right, .right, .left]
        )
        for row in rows.prefix(shownMetricKitRows) {
            let diagnostics = row.diagnostics.sorted { $0.key < $1.key }
                .map { "\(diagnosticLabel($0.key)) \($0.value)" }.joined(separator: ", ")
            table.append(
                [
                    row.name, Formatting.grouped(row.metricPayloads), Formatting.grouped(row.exitTotal),
                ] + row.rateAndLaunchFigures + [diagnostics.isEmpty ? "–" : diagnostics]
            )
        }
        out += table.render(indent: "  ")
        if rows.count > shownMetricKitRows {
            out += "  … \(rows.count - shownMetricKitRows) more (see --format json)\n"
        }
        if ungrouped > 0 { out += "  \(ungrouped) figure(s) past the row limit are in the totals only\n" }
        return out
    }

    /// `412 ms`, the unit launch times are read in.
    package static func milliseconds(_ seconds: Double) -> String {
        Formatting.grouped(Int(saturating: (seconds * 1000).rounded())) + " ms"
    }

    package static func launchText(_ launch: MetricKitFleetSummary.Launch) -> String {
        let p50 = launch.p50Seconds.map(milliseconds) ?? "–"
        let p90 = launch.p90Seconds.map(milliseconds) ?? "–"
        return "p50 \(p50), p90 \(p90) over \(Formatting.grouped(launch.count)) launch(es)"
    }

    /// MetricKit's diagnostic arrays in words; any other kind as written (the tables escape it).
    package static func diagnosticLabel(_ kind: String) -> String {
        switch kind {
        case "crash": "crash"
        case "hang": "hang"
        case "cpuException": "CPU exception"
        case "diskWriteException": "disk write exception"
        case "appLaunch": "launch"
        case "memoryException": "memory exception"
        case "callStackTree": "call-stack tree"
        default: kind
        }
    }

    package static func summaryLine(_ inventory: ScanInventory) -> String {
        var parts = [
            "\(Formatting.grouped(inventory.files)) path(s)", "\(Formatting.grouped(inventory.reports)) report(s)",
        ]
        if !inventory.crashGroups.isEmpty {
            let crashes = inventory.crashGroups.reduce(0) { $0 + $1.count }
            parts.append("\(crashes) crash(es) in \(inventory.crashGroups.count) signature(s)")
        }
        if !inventory.watchdogKills.isEmpty { parts.append("\(inventory.watchdogKills.count) watchdog/OS kill(s)") }
        if inventory.oomKills > 0 { parts.append("\(inventory.oomKills) OOM kill(s)") }
        if !inventory.unreadable.isEmpty { parts.append("\(inventory.unreadable.count) unreadable") }
        if let leftOut = inventory.leftOutByApp { parts.append("\(leftOut) left out by --app") }
        return parts.joined(separator: "; ")
    }
}
