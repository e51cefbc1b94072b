/// A seeded generator (SplitMix64), so that a test's random damage is the same on every run and a failure can be
/// replayed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// A number in `0..<n` (0 when `n` is not positive).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(Swift.max(n, 1))) }

    /// True or false, evenly.
    public mutating func chance() -> Bool { next() & 1 == 0 }

    /// One of `choices`, which must not be empty.
    public mutating func pick<Element>(_ choices: [Element]) -> Element { choices[below(choices.count)] }
}
