/// The seeded generator behind every mutation.
///
/// `SystemRandomNumberGenerator` cannot be seeded, and the standard library's `random(in:using:)` algorithms may
/// change between toolchains; a finding is only useful when `--seed` replays it exactly, so the engine draws every
/// choice through this generator and its own `below(_:)`.
public struct SplitMix64: Sendable, Equatable {
    /// The generator's whole state: two generators with equal states produce equal sequences.
    public private(set) var state: UInt64

    /// A generator from `seed`: the same seed gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// The generator for iteration `iteration` of a run seeded `seed`.
    ///
    /// Each iteration has its own stream, so what is tried does not depend on how iterations are shared among
    /// workers.
    public static func forIteration(_ iteration: UInt64, seed: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed)
        let base = mixer.next()
        var generator = SplitMix64(seed: base ^ (iteration &* 0xD1B5_4A32_D192_ED03))
        _ = generator.next()
        return generator
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is 1 or less.
    package mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        // Multiply-shift: the high word of a 64x64 product is below `bound`.
        let product = next().multipliedFullWidth(by: UInt64(bound))
        return Int(truncatingIfNeeded: product.high)
    }

    /// True with the given probability in percent.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// One of `items`, or nil when there is none.
    public mutating func pick<Element>(_ items: [Element]) -> Element? {
        items.isEmpty ? nil : items[below(items.count)]
    }

    /// A byte.
    public mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: next())
    }
}
