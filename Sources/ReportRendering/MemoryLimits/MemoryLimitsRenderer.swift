import APMInspectCore
import JetsamParsing

/// Renders the memory-limit table as text, Markdown or CSV.
package enum MemoryLimitsRenderer {
    /// Counts shown under the table.
    package struct Summary {
        package var files: Int
        package var jetsamEvents = 0
        package var partial = 0
        package var otherFiles = 0
        package var failures = 0
        package var duplicates = 0
        package var excluded: [String: Int] = [:]

        package init(files: Int) { self.files = files }
    }

    private static let headers = [
        "DEVICE", "IDENTIFIER", "RAM", "OS", "BUILD", "REPORTS", "FOREGROUND MB min/med/max", "% RAM",
        "BACKGROUND MB", "EXTENSION MB", "DAEMON KILLS", "FLAGS",
    ]

    private static func cells(_ row: MemoryLimitRow) -> [String] {
        [
            row.name ?? "?", row.product,
            row.ramMB.map { Formatting.ram($0) } ?? (row.ramAmbiguous ? "ambiguous" : "?"),
            row.osVersion ?? "?", row.osBuild ?? "?", String(row.reports), stats(row.foregroundLimitMB),
            row.foregroundPercentOfRAM.map { Formatting.oneDecimal($0.median) } ?? "–", stats(row.backgroundLimitMB),
            stats(row.extensionLimitMB), String(row.daemonLimitKills), row.flags.joined(separator: ","),
        ]
    }

    private static func stats(_ value: LimitStatistics?) -> String {
        guard let value else { return "–" }
        if value.min == value.max { return "\(value.min) (n=\(value.count))" }
        return "\(value.min) / \(Formatting.median(value.median)) / \(value.max) (n=\(value.count))"
    }

    package static func text(_ rows: [MemoryLimitRow]) -> String {
        guard !rows.isEmpty else { return "No per-process-limit evidence found.\n" }
        var table = TextTable(
            headers: headers,
            alignments: [.left, .left, .right, .left, .left, .right, .right, .right, .right, .right, .right, .left]
        )
        for row in rows { table.append(cells(row)) }
        return table.render()
    }

    /// Every cell escaped (`MarkdownText`): a device or OS string holding `|`, a line break or HTML keeps its row
    /// one row of as many cells as the header, shown as text.
    package static func markdown(_ rows: [MemoryLimitRow]) -> String {
        var out = "| " + headers.joined(separator: " | ") + " |\n"
        out += "|" + headers.map { _ in " --- |" }.joined() + "\n"
        for row in rows {
            out += "| " + cells(row).map(MarkdownText.escaped).joined(separator: " | ") + " |\n"
        }
        return out
    }

    package static func csv(_ rows: [MemoryLimitRow]) -> String {
        let columns = [
            "product", "name", "ramMB", "osVersion", "osBuild", "reports", "foregroundMinMB", "foregroundMedianMB",
            "foregroundMaxMB", "foregroundCount", "foregroundPercentOfRAM", "backgroundMinMB", "backgroundMedianMB",
            "backgroundMaxMB", "extensionMinMB", "extensionMedianMB", "extensionMaxMB", "daemonLimitKills", "flags",
        ]
        var out = columns.joined(separator: ",") + "\n"
        for row in rows {
            func num(_ value: UInt64?) -> String { value.map(String.init) ?? "" }
            func med(_ value: Double?) -> String { value.map(Formatting.median) ?? "" }
            let fields: [String] = [
                row.product, row.name ?? "", row.ramMB.map(String.init) ?? "", row.osVersion ?? "", row.osBuild ?? "",
                String(row.reports), num(row.foregroundLimitMB?.min), med(row.foregroundLimitMB?.median),
                num(row.foregroundLimitMB?.max), row.foregroundLimitMB.map { String($0.count) } ?? "0",
                row.foregroundPercentOfRAM.map { Formatting.oneDecimal($0.median) } ?? "",
                num(row.backgroundLimitMB?.min), med(row.backgroundLimitMB?.median), num(row.backgroundLimitMB?.max),
                num(row.extensionLimitMB?.min), med(row.extensionLimitMB?.median), num(row.extensionLimitMB?.max),
                String(row.daemonLimitKills), row.flags.joined(separator: ";"),
            ]
            out += fields.map(csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(",") || text.contains("\"") || text.contains("\n") else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    package static func summaryLine(_ summary: Summary) -> String {
        var parts = ["\(summary.files) file(s) read", "\(summary.jetsamEvents) JetsamEvent(s)"]
        if summary.partial > 0 { parts.append("\(summary.partial) partial") }
        if summary.duplicates > 0 { parts.append("\(summary.duplicates) duplicate(s) counted once") }
        var excluded = summary.excluded
        if let unnamed = excluded.removeValue(forKey: MemoryLimitTable.noDevice) {
            parts.append(
                "\(unnamed) excerpt(s) skipped: no product (a lone process entry or a body cut before it), "
                    + "so no device to put their limits under"
            )
        }
        if !excluded.isEmpty {
            let what = excluded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            parts.append("set aside: " + what.joined(separator: ", ") + " (use --include-all)")
        }
        if summary.otherFiles > 0 { parts.append("\(summary.otherFiles) other file(s) skipped") }
        if summary.failures > 0 { parts.append("\(summary.failures) unreadable") }
        return parts.joined(separator: "; ")
    }
}
