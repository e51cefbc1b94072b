import InputMutation

/// A seeded generator, so that a test's random damage is the same on every run and a failure can be replayed.
///
/// The fuzz engine's SplitMix64 draws the numbers; the tests keep their own `below` (a modulo, not the engine's
/// multiply-shift), so every seed a test names still draws what it drew when it was written.
public struct SeededGenerator: RandomNumberGenerator {
    private var mixer: SplitMix64

    public init(seed: UInt64) {
        mixer = SplitMix64(seed: seed)
    }

    public mutating func next() -> UInt64 {
        mixer.next()
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
