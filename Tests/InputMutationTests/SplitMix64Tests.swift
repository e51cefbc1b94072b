import InputMutation
import Testing

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("the same seed gives the same sequence, another seed another one")
    func seeded() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        var c = SplitMix64(seed: 43)
        let first = (0..<16).map { _ in a.next() }
        #expect(first == (0..<16).map { _ in b.next() })
        #expect(first != (0..<16).map { _ in c.next() })
    }

    @Test("the first outputs for seed 0 are the published SplitMix64 values")
    func knownValues() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("below stays in range and reaches every value of a small range")
    func belowRange() {
        var generator = SplitMix64(seed: 7)
        var seen = Set<Int>()
        for _ in 0..<1000 {
            let value = generator.below(6)
            #expect(value >= 0 && value < 6)
            seen.insert(value)
        }
        #expect(seen.count == 6)
        #expect(generator.below(0) == 0)
        #expect(generator.below(1) == 0)
    }

    @Test("iteration streams depend on the seed and the iteration only")
    func iterationStreams() {
        var a = SplitMix64.forIteration(5, seed: 1)
        var b = SplitMix64.forIteration(5, seed: 1)
        var c = SplitMix64.forIteration(6, seed: 1)
        var d = SplitMix64.forIteration(5, seed: 2)
        let x = a.next()
        #expect(x == b.next())
        #expect(x != c.next())
        #expect(x != d.next())
    }
}
