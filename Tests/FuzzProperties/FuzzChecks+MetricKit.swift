import CrashReportParsing
import MetricKitParsing

extension FuzzChecks {
    /// `FuzzMetricKit`: payloads read alike twice and encode as strict JSON; call-stack trees keep their invariants
    /// (no negative samples, parents before children, a heaviest path no longer than the tree, the frame budget);
    /// the crash reports built from them render as Apple's text.
    public static func metricKit(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        _ = MetricKitReader.recognise(bytes)
        let budget = 20_000
        let reader = MetricKitReader(maxFrames: budget, maxMetricEntries: budget)
        let first = try? reader.read(bytes)
        let second = try? reader.read(bytes)
        found.require(first?.report == second?.report, "two reads of the same bytes differ")
        guard let first else { return found }
        found.requireEncodes(first.report, "the MetricKit report")
        found.requireEncodes(first.diagnostics, "the diagnostics")
        var frames = 0
        for diagnostic in first.report.diagnostics {
            guard let tree = diagnostic.callTree else { continue }
            frames += tree.frames.count
            for frame in tree.frames {
                found.require(frame.selfSamples >= 0 && frame.endSamples >= 0, "negative sample counts")
                if let parent = frame.parent { found.require(parent < frame.id, "a parent after its child") }
            }
            found.require(tree.heaviestPath.count <= tree.frames.count, "a heaviest path longer than the tree")
            if let crash = diagnostic.crashReport {
                _ = CrashTextTranslator().translate(crash)
            }
        }
        found.require(frames <= budget, "the frame budget was exceeded")
        return found
    }
}
