import APMInspectCore
import JetsamParsing

extension FuzzChecks {
    /// `FuzzJetsam`: the full model is deterministic and prints as strict JSON, with its diagnostics.
    public static func jetsam(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let parser = JetsamParser()
        let first = try? parser.parse(bytes)
        let second = try? parser.parse(bytes)
        found.require(first == second, "two parses of the same bytes differ")
        if let first {
            found.requireEncodes(first.event, "the JetsamEvent")
            found.requireEncodes(first.diagnostics, "the diagnostics")
        }
        return found
    }

    /// `FuzzJetsamLimits`: the memory-limit fast path gives the evidence of the full model, partial or not.
    ///
    /// A repaired body is read by the fast path with the full reader's own field code over the same repaired tape,
    /// and damage found inside a skipped process entry makes it read the body again in full, so partial evidence is
    /// compared too. One known gap: damage the skimming cannot see (Fuzz/FailCases/FuzzJetsamLimits/open/).
    public static func jetsamLimits(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let container = IPSContainer(bytes: bytes)
        let parser = JetsamParser()
        guard let fast = try? parser.memoryLimitEvidence(container, contentHash: { 7 }) else { return found }
        found.requireEncodes(fast.evidence, "the memory-limit evidence")
        if let full = try? parser.parse(container) {
            let expected = MemoryLimitEvidence(event: full.event, contentHash: 7)
            found.require(
                expected == fast.evidence,
                "the fast path and the full model disagree: \(fast.evidence) vs \(expected)"
            )
        }
        return found
    }
}
