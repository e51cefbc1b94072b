import APMInspectCore
import FuzzSupport
import JetsamParsing

/// The memory-limit fast path, checked against the evidence the full model gives where both read the file as is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJetsamLimits(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let container = IPSContainer(bytes: bytes)
    let parser = JetsamParser()
    guard let fast = try? parser.memoryLimitEvidence(container, contentHash: { 7 }) else { return 0 }
    fuzzCheckEncodes(fast.evidence, "the memory-limit evidence")
    // Agreement is promised for reports read as they are. A repaired body is flagged partial to the user, and
    // there the two readers can resolve damage differently (open finding in Fuzz/FailCases/README.md).
    if !fast.isPartial, let full = try? parser.parse(container) {
        let expected = MemoryLimitEvidence(event: full.event, contentHash: 7)
        fuzzRequire(
            expected == fast.evidence,
            "the fast path and the full model disagree: \(fast.evidence) vs \(expected)"
        )
    }
    return 0
}
