import InputMutation
import Testing

@Suite("DeltaDebugging")
struct DeltaDebuggingTests {
    private static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        // Lower-case letters only, so the markers below cannot appear by chance.
        return (0..<count).map { _ in UInt8(ascii: "a") + UInt8(rng.below(26)) }
    }

    private static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard haystack.count >= n.count else { return false }
        return (0...(haystack.count - n.count)).contains { Array(haystack[$0..<($0 + n.count)]) == n }
    }

    @Test("a failure caused by one marker minimises to the marker")
    func singleMarker() {
        var input = Self.noise(5000, seed: 1)
        input.insert(contentsOf: Array("BUG!".utf8), at: 3217)
        let result = DeltaDebugging.minimise(input) { Self.contains($0, "BUG!") }
        #expect(result.bytes == Array("BUG!".utf8))
        #expect(result.isComplete)
    }

    @Test("two separated causes keep both, in order, and nothing else")
    func twoCauses() {
        var input = Self.noise(2000, seed: 2)
        input[100] = UInt8(ascii: "X")
        input[1500] = UInt8(ascii: "Y")
        let result = DeltaDebugging.minimise(input) { candidate in
            guard let x = candidate.firstIndex(of: UInt8(ascii: "X")) else { return false }
            return candidate[x...].contains(UInt8(ascii: "Y"))
        }
        #expect(result.bytes == Array("XY".utf8))
    }

    @Test("the test budget is respected and the partial result still fails")
    func budget() {
        var input = Self.noise(10000, seed: 3)
        input.insert(contentsOf: Array("BUG!".utf8), at: 7777)
        var calls = 0
        let result = DeltaDebugging.minimise(input, maxTests: 10) { candidate in
            calls += 1
            return Self.contains(candidate, "BUG!")
        }
        #expect(calls == 10)
        #expect(result.tests == 10)
        #expect(!result.isComplete)
        #expect(result.bytes.count < input.count)
        #expect(Self.contains(result.bytes, "BUG!"))
    }

    @Test("the same input and predicate always give the same result")
    func pure() {
        var input = Self.noise(3000, seed: 4)
        input.insert(contentsOf: Array("Q".utf8), at: 10)
        input.insert(contentsOf: Array("Z".utf8), at: 2900)
        let predicate: ([UInt8]) -> Bool = { $0.contains(UInt8(ascii: "Q")) && $0.contains(UInt8(ascii: "Z")) }
        #expect(
            DeltaDebugging.minimise(input, isFailing: predicate) == DeltaDebugging.minimise(input, isFailing: predicate)
        )
    }
}
