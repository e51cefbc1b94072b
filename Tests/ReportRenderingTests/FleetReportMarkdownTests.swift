import APMInspectCore
import FleetReport
import ReportRendering
import Testing

/// A line of text under a Markdown table needs a blank line before it: GitHub reads a table on until a blank line,
/// so "1 hang(s) …" or "… 5 more signatures" written straight under the last row became one more row.
@Suite struct FleetReportMarkdownTests {
    /// Lines that directly follow a table row without being one.
    static func linesGluedToTables(_ markdown: String) -> [String] {
        var glued: [String] = []
        var previous = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if previous.hasPrefix("|") && !line.hasPrefix("|") && !line.isEmpty { glued.append(line) }
            previous = line
        }
        return glued
    }

    @Test func theHangLineIsNotATableRow() throws {
        let markdown = FleetReportTextRenderer.markdown(try RenderingGoldenTests.fleetSummary())
        #expect(markdown.contains("\n\n3 hang(s), 2 recovered"))
        #expect(Self.linesGluedToTables(markdown) == [])
    }

    @Test func theMoreSignaturesLineIsNotATableRow() {
        var aggregator = FleetAggregator()
        let context = FleetEvent.Context(
            bundleId: "com.example.app",
            process: "App",
            appVersion: "1.0",
            osVersion: "17.0",
            device: "iPhone15,2",
            date: AppleTimestamp("2024-05-01T10:00:00Z")
        )
        let groups = FleetReportTextRenderer.shownRows + 5
        for index in 0..<groups {
            let crash = FleetEvent.Crash(
                signature: "signature-\(index)",
                source: "crashReport",
                exception: "EXC_BAD_ACCESS (SIGSEGV)",
                topFrame: "App`f\(index)",
                context: context
            )
            aggregator.add(FleetEvent(file: "crash-\(index).ips", kind: "crashReport", crashes: [crash]))
        }
        let markdown = FleetReportTextRenderer.markdown(aggregator.summary())
        #expect(markdown.contains("\n\n… 5 more signatures (see --format json)\n"))
        #expect(Self.linesGluedToTables(markdown) == [])
        // The text view is unchanged: the line follows its table directly.
        let text = FleetReportTextRenderer.text(aggregator.summary())
        #expect(text.contains("… 5 more signatures (see --format json)\n"))
        #expect(!text.contains("\n\n… 5 more signatures"))
    }
}
