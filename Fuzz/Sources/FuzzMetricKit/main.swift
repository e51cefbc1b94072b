import FuzzSupport

/// MetricKit payloads: the reader, the crash reports it builds, and the invariants of its call-stack trees.
///
/// The properties are ``FuzzChecks/metricKit(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetricKit(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.metricKit(fuzzBytes(start, count)))
    return 0
}
