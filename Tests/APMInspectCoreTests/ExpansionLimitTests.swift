import Testing

@testable import APMInspectCore

@Suite struct ExpansionLimitTests {
    @Test func theRatioAppliesBetweenTheFloorAndTheCap() {
        let limit = ExpansionLimit(maxBytes: 1 << 30, maxRatio: 100, floorBytes: 64 << 20)
        // Small inputs always get the floor: a 10 KB file of repetitive text may expand to 64 MiB.
        #expect(limit.bytes(forCompressed: 10_000) == 64 << 20)
        #expect(limit.describe(compressed: 10_000).contains("100:1 of 10000 compressed bytes, never below 67108864"))
        // A 1.5 MB bomb gets 150 MB, not the 1 GiB cap.
        #expect(limit.bytes(forCompressed: 1_500_000) == 150_000_000)
        #expect(limit.describe(compressed: 1_500_000).contains("expansion-ratio limit: 100:1 of 1500000"))
        // Large inputs reach the cap, and the message says so.
        #expect(limit.bytes(forCompressed: 100_000_000) == 1 << 30)
        #expect(limit.describe(compressed: 100_000_000).hasSuffix("(size limit)"))
        // Hostile sizes never overflow or go negative.
        #expect(limit.bytes(forCompressed: Int.max) == 1 << 30)
        #expect(limit.bytes(forCompressed: -5) == 64 << 20)
        #expect(ExpansionLimit(maxBytes: 10, maxRatio: 0, floorBytes: 0).bytes(forCompressed: 3) == 3)
    }
}
