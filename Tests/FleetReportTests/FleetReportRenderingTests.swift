import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import ReportSources
import Testing

@testable import apm_inspect

/// The formats: hostile names are escaped in HTML, Markdown and text; the HTML page is self-contained; the
/// command reads NDJSON of a scan to the same report as the files.
@Suite struct FleetReportRenderingTests {
    static let hostile = "<script>alert(1)</script>\"' onmouseover=x \u{1b}[31m|*_`"

    static func hostileSummary(_ hostile: String = hostile) -> FleetSummary {
        var aggregator = FleetAggregator()
        let context = FleetEvent.Context(
            bundleId: hostile,
            process: hostile,
            appVersion: "1.0<b>",
            osVersion: "17.0&",
            device: hostile,
            date: AppleTimestamp("2024-05-01T10:00:00Z")
        )
        aggregator.add(
            FleetEvent(
                file: "/tmp/\(hostile).ips",
                kind: "crashReport",
                crashes: [
                    .init(
                        signature: hostile,
                        source: "crashReport",
                        exception: hostile,
                        topFrame: hostile,
                        context: context
                    )
                ],
                watchdog: .init(reason: hostile, verdict: hostile, context: context),
                resource: .init(
                    kind: hostile,
                    fatal: true,
                    frames: [hostile, hostile],
                    source: hostile,
                    bugType: hostile,
                    context: context
                )
            )
        )
        aggregator.note("finding about \(hostile)")
        return aggregator.summary()
    }

    @Test func htmlEscapesEveryStringFromInput() {
        let page = FleetReportHTMLRenderer.render(Self.hostileSummary())
        #expect(!page.contains("<script"))
        #expect(!page.contains("<b>"))
        #expect(!page.contains("\" onmouseover"))
        #expect(!page.contains("' onmouseover"))
        #expect(!page.contains("\u{1b}"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39; onmouseover=x \\x1b[31m"))
        #expect(page.contains("1.0&lt;b&gt;"))
        #expect(page.contains("<svg id=\"crashes-per-day\""))
    }

    @Test func htmlFetchesNothing() {
        let page = FleetReportHTMLRenderer.render(Self.hostileSummary())
        for pattern in ["src=", "href=", "<link", "<script", "@import", "url("] {
            #expect(!page.contains(pattern), "\(pattern)")
        }
        // The SVG namespace is a name, not a request.
        let urls = page.components(separatedBy: "://").count - 1
        let namespaces = page.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1
        #expect(namespaces == 1)
        #expect(urls == namespaces)
    }

    @Test func textAndMarkdownEscapeControlsAndMarkup() {
        let text = FleetReportTextRenderer.text(Self.hostileSummary())
        #expect(!text.contains("\u{1b}"))
        #expect(text.contains("\\x1b[31m"))
        let markdown = FleetReportTextRenderer.markdown(Self.hostileSummary())
        #expect(!markdown.contains("\u{1b}"))
        #expect(!markdown.contains("<script>"))
        #expect(markdown.contains("&lt;script&gt;"))
        #expect(markdown.contains("\\|\\*\\_\\`"))
    }

    /// A field with `|`, line breaks, `<script>` and controls in every string: each Markdown table keeps one cell
    /// count on every row, and no row, heading or list item is the field's.
    @Test func markdownTablesKeepTheirRowsAndColumns() {
        let markdown = FleetReportTextRenderer.markdown(Self.hostileSummary(MarkupStructure.hostileField))
        let tables = MarkupStructure.markdownTables(in: markdown)
        // The inputs' file kinds (a header, a separator and one kind), reports by kind (a header, a separator and a
        // row for each of the nine kinds), then crash groups, each app's newest version, crashes per day, watchdog
        // terminations, the OOM truth table (the watchdog kill's row) and the resource kills (a header, a separator
        // and one row each).
        #expect(tables.map(\.count) == [3, 11, 3, 3, 3, 3, 3, 3])
        for table in tables {
            let width = table.first?.count ?? 0
            #expect(width > 1 && table.allSatisfy { $0.count == width })
        }
        let lines = markdown.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("| forged") })
        #expect(lines.filter { $0.hasPrefix("#") }.allSatisfy { $0.hasPrefix("# Fleet report") || $0.hasPrefix("## ") })
        #expect(!markdown.contains("<") && !markdown.contains(">"))
        #expect(!MarkupStructure.hasRawControl(markdown))
    }

    /// The same field in the HTML page: only the renderer's own elements, no comment, no attribute broken out of.
    @Test func htmlHasNoElementFromInput() {
        let page = FleetReportHTMLRenderer.render(Self.hostileSummary(MarkupStructure.hostileField))
        let elements = MarkupStructure.htmlElements(in: page)
        let own: Set = [
            "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "span", "table", "tr", "th",
            "td", "code", "strong", "ul", "li", "svg", "text", "line", "rect", "div", "time",
        ]
        #expect(Set(elements.names).isSubset(of: own), "\(Set(elements.names).subtracting(own))")
        #expect(elements.names.filter { $0 == "style" }.count == 1)
        // Reports by kind: a header and nine kinds; the inputs' file kinds, crash groups, their files, each app's
        // newest version, watchdog terminations, the OOM truth table and the resource kills: a header and a row each.
        #expect(elements.names.filter { $0 == "tr" }.count == 24)
        #expect(elements.comments == 0)
        #expect(!page.contains("\" onmouseover") && !page.contains("' onmouseover"))
        #expect(!MarkupStructure.hasRawControl(page))
    }

    @Test func reportOfAScanNDJSONEqualsReportOfTheFiles() throws {
        let folder = try TemporaryTestFolder()
        defer { folder.remove() }
        let corpus = FuzzReplayInputs.root.appendingPathComponent("Corpus").path
        let paths = FleetEnvelopeTests.families.map { corpus + "/" + $0 }
        let (files, failures) = PathWalker.rawFiles(in: paths)
        #expect(failures.isEmpty)
        var direct = FleetAggregator()
        var lines = ""
        for raw in files {
            let inspection = ReportInspector().inspect(raw: raw)
            direct.add(inspection.fleetEvent)
            lines += try JSONOutput.encode(inspection, pretty: false) + "\n"
        }
        let ndjson = folder.path + "/scan.ndjson"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: ndjson))
        var replayed = FleetAggregator()
        try NDJSONReader().read(path: ndjson) { line in
            if case .event(let event) = line { replayed.add(event, fromNDJSON: true) }
            return true
        }
        var left = direct.summary()
        let right = replayed.summary()
        #expect(right.inputs.ndjsonEnvelopes == files.count)
        left.inputs.ndjsonEnvelopes = right.inputs.ndjsonEnvelopes
        #expect(left == right)
        #expect(left.crashes.total > 15)
        #expect(left.watchdog.total >= 6)
        #expect(left.oom.events > 10)
        #expect(!left.metricKit.isEmpty)
        #expect(try JSONOutput.encode(left, pretty: true) == JSONOutput.encode(right, pretty: true))
    }
}
