import APMInspectCore

/// Turns an input into a hostile variant.
///
/// First, usually, one structure-aware mutation for its family, then up to three byte-level ones. Every choice is drawn from the caller's ``SplitMix64``, so a seed replays exactly.
public struct MutationEngine: Sendable {
    /// The largest output produced; insertions beyond it are cut.
    public var maxOutputBytes: Int

    /// An engine whose mutants stay within `maxOutputBytes`.
    public init(maxOutputBytes: Int = 16 << 20) {
        self.maxOutputBytes = max(maxOutputBytes, 1)
    }

    /// A changed copy of `input`.
    ///
    /// `donors` are other inputs of the same family, for splicing.
    package func mutate(_ input: MutationInput, donors: [MutationInput] = [], rng: inout SplitMix64) -> Mutation {
        var steps: [String] = []
        var current = input.bytes
        let structured = applicable(to: input, donors: donors).filter(\.isStructureAware)
        if !structured.isEmpty, rng.chance(70), let kind = rng.pick(structured),
            let (bytes, note) = apply(kind, to: input, donors: donors, rng: &rng)
        {
            current = bytes
            steps.append(note)
        }
        let byteRounds = steps.isEmpty ? 1 + rng.below(3) : rng.below(3)
        let byteKinds = applicable(to: input, donors: donors).filter { !$0.isStructureAware }
        for _ in 0..<byteRounds {
            guard let kind = rng.pick(byteKinds) else { break }
            // After the first step the map describes the original only; byte mutators still read its boundaries.
            let view = MutationInput(resolved: current, family: input.family, map: input.map)
            if let (bytes, note) = apply(kind, to: view, donors: donors, rng: &rng) {
                current = bytes
                steps.append(note)
            }
        }
        if current == input.bytes || steps.isEmpty {
            let (bytes, note) = forceChange(input.bytes, rng: &rng)
            current = bytes
            steps.append(note)
        }
        return Mutation(bytes: current, steps: steps)
    }

    /// The mutators that can work on `input` (its family has the spans they need).
    public func applicable(to input: MutationInput, donors: [MutationInput] = []) -> [MutatorKind] {
        let roles = Set(input.map.roles)
        return MutatorKind.allCases.filter { kind in
            switch kind {
            case .splice:
                return donors.contains { $0.family == input.family } && !input.bytes.isEmpty
            case .truncateAtBoundary:
                return !input.bytes.isEmpty
            case .lengthField:
                return input.map.spans.contains {
                    if case .lengthField = $0.role { return true }
                    return false
                }
            case .compressedContent:
                return input.family == .gzip || input.family == .zlib
            case .deleteRange, .duplicateRange, .flipBit, .interestingByte, .interestingWord:
                return !input.bytes.isEmpty
            case .insertBytes:
                return true
            default:
                guard let role = kind.requiredRole else { return false }
                return roles.contains(role)
            }
        }
    }

    /// Applies one mutator; nil when it does not apply to `input` or could not change it.
    public func apply(
        _ kind: MutatorKind,
        to input: MutationInput,
        donors: [MutationInput] = [],
        rng: inout SplitMix64
    ) -> (bytes: [UInt8], note: String)? {
        var out = input.bytes
        let note: Int?
        switch kind {
        case .flipBit, .interestingByte, .interestingWord, .insertBytes, .deleteRange, .duplicateRange:
            note = ByteMutators.apply(kind, to: &out, rng: &rng, limit: maxOutputBytes)
        case .truncateAtBoundary:
            note = ByteMutators.truncate(&out, boundaries: input.map.boundaries, rng: &rng)
        case .splice:
            let sameFamily = donors.filter { $0.family == input.family && $0.bytes != input.bytes }
            guard let donor = rng.pick(sameFamily) ?? rng.pick(donors.filter { $0.family == input.family }) else {
                return nil
            }
            note = ByteMutators.splice(&out, input.map.boundaries, donor, rng: &rng, limit: maxOutputBytes)
        case .compressedContent:
            note = compressed(&out, family: input.family, rng: &rng)
        default:
            note = StructureMutators.apply(kind, to: &out, map: input.map, rng: &rng, limit: maxOutputBytes)
        }
        guard let offset = note, out != input.bytes else { return nil }
        if out.count > maxOutputBytes { out.removeSubrange(maxOutputBytes...) }
        return (out, "\(kind.rawValue)@\(offset)")
    }

    /// Mutates what a gzip or zlib stream holds by its own family, then wraps it again.
    private func compressed(_ bytes: inout [UInt8], family: InputFamily, rng: inout SplitMix64) -> Int? {
        guard let inflated = try? Inflate.decompress(bytes, maxOutputBytes: maxOutputBytes), !inflated.bytes.isEmpty
        else { return nil }
        let inner = MutationInput(bytes: inflated.bytes)
        let innerEngine = MutationEngine(maxOutputBytes: maxOutputBytes)
        let kinds = innerEngine.applicable(to: inner).filter { $0 != .compressedContent && $0 != .splice }
        guard let kind = rng.pick(kinds), let (mutated, _) = innerEngine.apply(kind, to: inner, rng: &rng) else {
            return nil
        }
        bytes = family == .gzip ? CompressedStream.gzip(mutated) : CompressedStream.zlib(mutated)
        return 0
    }

    /// A change that always applies: a bit flip, or one byte for an empty input.
    private func forceChange(_ bytes: [UInt8], rng: inout SplitMix64) -> ([UInt8], String) {
        guard !bytes.isEmpty else { return ([rng.byte()], "\(MutatorKind.insertBytes.rawValue)@0") }
        var out = bytes
        let offset = rng.below(out.count)
        out[offset] ^= 1 << UInt8(rng.below(8))
        return (out, "\(MutatorKind.flipBit.rawValue)@\(offset)")
    }
}

extension MutationInput {
    /// An input whose map is already known (the engine reuses the original's map for follow-up byte steps).
    init(resolved bytes: [UInt8], family: InputFamily, map: StructureMap) {
        self.bytes = bytes
        self.family = family
        self.map = map
    }
}
