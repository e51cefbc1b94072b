import Foundation
import FuzzReplaySupport
import JetsamParsing
import ReportRendering
import Testing

@testable import apm_inspect

/// A device or process field holding `|`, a line break, raw HTML and terminal controls leaves the Markdown tables
/// and the HTML page of `memory-limits` and `report` their structure: rows, cells and elements are the renderer's.
@Suite struct MarkupEscapingTests {
    static let hostile = MarkupStructure.hostileField

    static func row(product: String, name: String?, os: String) -> MemoryLimitRow {
        MemoryLimitRow(
            product: product,
            name: name,
            ramMB: 3072,
            ramAmbiguous: false,
            estimatedRAMMB: nil,
            osName: "iPhone OS",
            osVersion: os,
            osBuild: os,
            reports: 2,
            foregroundLimitMB: LimitStatistics(min: 1449, median: 1450, max: 1451, count: 2),
            foregroundPercentOfRAM: nil,
            backgroundLimitMB: nil,
            extensionLimitMB: nil,
            daemonLimitKills: 0,
            flags: ["beta"]
        )
    }

    /// Every table of `markdown` keeps one cell count across its rows, and no row was started by a field.
    static func expectTablesKeepTheirShape(_ markdown: String, tables expected: Int, rows: Int? = nil) {
        let tables = MarkupStructure.markdownTables(in: markdown)
        #expect(tables.count == expected)
        for table in tables {
            let width = table.first?.count ?? 0
            #expect(width > 1)
            #expect(table.allSatisfy { $0.count == width }, "\(table.map(\.count))")
        }
        if let rows { #expect(tables.first?.count == rows) }
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("| forged") })
        #expect(!markdown.contains("<") && !markdown.contains(">"))
        #expect(!MarkupStructure.hasRawControl(markdown))
    }

    @Test func memoryLimitsMarkdownKeepsItsRowsAndColumns() {
        let rows = [
            Self.row(product: Self.hostile, name: Self.hostile, os: Self.hostile),
            Self.row(product: "iPhone8,2", name: "iPhone 6s Plus", os: "13.3.1"),
        ]
        let markdown = MemoryLimitsRenderer.markdown(rows)
        // The header, its separator and one line per row.
        #expect(markdown.split(separator: "\n").count == 4)
        Self.expectTablesKeepTheirShape(markdown, tables: 1, rows: 4)
        let cells = MarkupStructure.markdownTables(in: markdown)[0]
        #expect(cells[0].count == 12)
        #expect(cells[3].prefix(2) == ["iPhone 6s Plus", "iPhone8,2"])
    }

    /// The built binary on a JetsamEvent whose product, OS build and killed process are hostile: `memory-limits`
    /// Markdown and `report` Markdown and HTML keep their structure.
    @Test func theCommandsKeepTheirStructureOnAHostileJetsamEvent() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(
            contentsOfFile: BuiltCommandTests.root.path + "/" + BuiltCommandTests.jetsam,
            encoding: .utf8
        )
        let quoted = try #require(String(data: try JSONEncoder().encode(Self.hostile), encoding: .utf8))
        let hostileEvent = original.replacingOccurrences(of: "\"iPhone8,2\"", with: quoted)
            .replacingOccurrences(of: "\"SnapCollage\"", with: quoted)
            .replacingOccurrences(of: "\"iPhone OS 13.3.1 (17D50)\"", with: quoted.dropLast() + " (17D50)\"")
        #expect(hostileEvent != original)
        let path = folder.appendingPathComponent("hostile.ips").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(hostileEvent.utf8)))

        let limits = try BuiltCommandTests.run(bin, ["memory-limits", "--format", "markdown", "--include-all", path])
        #expect(limits.status == 0, "\(limits.stderr)")
        Self.expectTablesKeepTheirShape(limits.stdout, tables: 1, rows: 3)
        #expect(limits.stdout.contains("&lt;script&gt;"))

        let markdown = try BuiltCommandTests.run(bin, ["report", "--format", "markdown", path])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        // The inputs' file kinds, reports by kind, memory limits by device, the OOM table and the OOM truth table
        // (the hostile process killed at its limit, on the hostile device).
        Self.expectTablesKeepTheirShape(markdown.stdout, tables: 5)
        #expect(markdown.stdout.contains("&lt;script&gt;"))

        let html = try BuiltCommandTests.run(bin, ["report", "--format", "html", path])
        #expect(html.status == 0, "\(html.stderr)")
        let page = html.stdout
        #expect(page.contains("&lt;script&gt;"))
        let elements = MarkupStructure.htmlElements(in: page)
        let own: Set = [
            "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "span", "table", "tr", "th",
            "td", "code", "strong", "ul", "li", "svg", "text", "line", "rect", "div", "time",
        ]
        #expect(Set(elements.names).isSubset(of: own), "\(Set(elements.names).subtracting(own))")
        #expect(elements.comments == 0)
        #expect(elements.names.filter { $0 == "style" }.count == 1)
        #expect(!page.contains("\" onmouseover") && !page.contains("' onmouseover"))
        #expect(!MarkupStructure.hasRawControl(page))
    }
}
