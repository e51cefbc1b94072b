import APMInspectCore
import JetsamParsing

/// The human inventory of a scan.
enum ScanRenderer {
    static func render(_ inventory: ScanInventory) -> String {
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
                "\nOOM kills: \(inventory.oomKills) killed processes in \(inventory.kinds["jetsamEvent"] ?? 0) JetsamEvents\n"
            if !inventory.memoryLimits.isEmpty { out += MemoryLimitsRenderer.text(inventory.memoryLimits) }
        }
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

    static func summaryLine(_ inventory: ScanInventory) -> String {
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
        return parts.joined(separator: "; ")
    }
}
