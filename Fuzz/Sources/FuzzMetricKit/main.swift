import APMInspectCore
import CrashReportParsing
import FuzzSupport
import MetricKitParsing

/// MetricKit payloads: the reader, the crash reports it builds, and the invariants of its call-stack trees.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetricKit(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    _ = MetricKitReader.recognise(bytes)
    let reader = MetricKitReader(maxFrames: 20_000, maxMetricEntries: 20_000)
    let first = try? reader.read(bytes)
    let second = try? reader.read(bytes)
    fuzzRequire(first?.report == second?.report, "two reads of the same bytes differ")
    guard let first else { return 0 }
    fuzzCheckEncodes(first.report, "the MetricKit report")
    fuzzCheckEncodes(first.diagnostics, "the diagnostics")
    var frames = 0
    for diagnostic in first.report.diagnostics {
        guard let tree = diagnostic.callTree else { continue }
        frames += tree.frames.count
        for frame in tree.frames {
            fuzzRequire(frame.selfSamples >= 0 && frame.endSamples >= 0, "negative sample counts")
            if let parent = frame.parent { fuzzRequire(parent < frame.id, "a parent after its child") }
        }
        fuzzRequire(tree.heaviestPath.count <= tree.frames.count, "a heaviest path longer than the tree")
        if let crash = diagnostic.crashReport {
            _ = CrashTextTranslator().translate(crash)
        }
    }
    fuzzRequire(frames <= 20_000, "the frame budget was exceeded")
    return 0
}
