/// Mutators that know nothing of the format: they find what structure-aware ones do not think of.
enum ByteMutators {
    /// Applies a byte mutator in place; returns the offset it worked at, nil when it cannot apply.
    static func apply(_ kind: MutatorKind, to bytes: inout [UInt8], rng: inout SplitMix64, limit: Int) -> Int? {
        switch kind {
        case .flipBit:
            guard !bytes.isEmpty else { return nil }
            let offset = rng.below(bytes.count)
            bytes[offset] ^= 1 << UInt8(rng.below(8))
            return offset
        case .interestingByte:
            guard !bytes.isEmpty else { return nil }
            let offset = rng.below(bytes.count)
            var value = rng.pick(InterestingValues.bytes) ?? 0
            if value == bytes[offset] { value = ~value }
            bytes[offset] = value
            return offset
        case .interestingWord:
            guard !bytes.isEmpty else { return nil }
            let width = [2, 4, 8][rng.below(3)]
            guard bytes.count >= width else { return nil }
            let offset = rng.below(bytes.count - width + 1)
            let value = rng.pick(InterestingValues.words) ?? 0
            let before = bytes[offset..<(offset + width)]
            ByteFields.write(value, into: &bytes, at: offset, width: width, bigEndian: rng.chance(50))
            if bytes[offset..<(offset + width)] == before { bytes[offset] ^= 0xFF }
            return offset
        case .insertBytes:
            let count = 1 + rng.below(rng.chance(10) ? 4096 : 16)
            guard bytes.count + count <= limit else { return nil }
            let offset = rng.below(bytes.count + 1)
            let fill: [UInt8]
            if rng.chance(50), let byte = rng.pick(InterestingValues.bytes) {
                fill = [UInt8](repeating: byte, count: count)
            } else {
                fill = (0..<count).map { _ in rng.byte() }
            }
            bytes.insert(contentsOf: fill, at: offset)
            return offset
        case .deleteRange:
            guard !bytes.isEmpty else { return nil }
            let range = randomRange(count: bytes.count, rng: &rng)
            bytes.removeSubrange(range)
            return range.lowerBound
        case .duplicateRange:
            guard !bytes.isEmpty else { return nil }
            let range = randomRange(count: bytes.count, rng: &rng)
            let copies = rng.chance(10) ? 2 + rng.below(64) : 1
            guard bytes.count + range.count * copies <= limit else { return nil }
            let piece = Array(bytes[range])
            let at = rng.chance(50) ? range.upperBound : rng.below(bytes.count + 1)
            var inserted: [UInt8] = []
            inserted.reserveCapacity(piece.count * copies)
            for _ in 0..<copies { inserted += piece }
            bytes.insert(contentsOf: inserted, at: at)
            return at
        default:
            return nil
        }
    }

    /// Cuts the input at a structural boundary (any offset when there is none).
    static func truncate(_ bytes: inout [UInt8], boundaries: [Int], rng: inout SplitMix64) -> Int? {
        guard !bytes.isEmpty else { return nil }
        let inside = boundaries.filter { $0 > 0 && $0 < bytes.count }
        let cut = rng.pick(inside) ?? rng.below(bytes.count)
        // Half the time one byte either side of the boundary: off-by-one handling at ends of structures.
        let jitter = rng.chance(50) ? rng.below(3) - 1 : 0
        let at = min(max(cut + jitter, 0), bytes.count - 1)
        bytes.removeSubrange(at...)
        return at
    }

    /// The head of `bytes` up to one of its boundaries, then the tail of `donor` from one of its own.
    static func splice(
        _ bytes: inout [UInt8],
        _ boundaries: [Int],
        _ donor: MutationInput,
        rng: inout SplitMix64,
        limit: Int
    ) -> Int? {
        guard !bytes.isEmpty, !donor.bytes.isEmpty else { return nil }
        let cut = rng.pick(boundaries.filter { $0 < bytes.count }) ?? rng.below(bytes.count)
        let donorCut = rng.pick(donor.map.boundaries) ?? rng.below(donor.bytes.count)
        let tail = donor.bytes[min(donorCut, donor.bytes.count)...]
        guard cut + tail.count <= limit, !tail.isEmpty else { return nil }
        bytes.removeSubrange(cut...)
        bytes += tail
        return cut
    }

    /// A range of at most a quarter of the input, usually short.
    static func randomRange(count: Int, rng: inout SplitMix64) -> Range<Int> {
        let longest = max(1, rng.chance(80) ? min(count, 16) : count / 4)
        let length = 1 + rng.below(longest)
        let start = rng.below(max(count - length + 1, 1))
        return start..<min(start + length, count)
    }
}
