/// Mutators that aim at the spans of a ``StructureMap``: values, keys, lines, fields, lengths and headers.
enum StructureMutators {
    /// Applies a structure-aware mutator in place; returns the offset it worked at, nil when it cannot apply.
    static func apply(
        _ kind: MutatorKind,
        to bytes: inout [UInt8],
        map: StructureMap,
        rng: inout SplitMix64,
        limit: Int
    ) -> Int? {
        if kind == .lengthField {
            let fields = map.spans.filter {
                if case .lengthField = $0.role { return true }
                return false
            }
            guard let span = rng.pick(fields), case .lengthField(let width, let bigEndian) = span.role else {
                return nil
            }
            return lengthField(&bytes, span.range.lowerBound, width: width, bigEndian: bigEndian, rng: &rng)
        }
        if kind.rawValue.hasPrefix("dwarf.") {
            return dwarf(kind, to: &bytes, map: map, rng: &rng, limit: limit)
        }
        guard let role = kind.requiredRole, let span = rng.pick(map.spans(role)),
            span.range.upperBound <= bytes.count
        else { return nil }
        let range = span.range
        switch kind {
        case .jsonReplaceValue, .textFieldValue, .textFrameColumn:
            let pool = kind == .jsonReplaceValue ? InterestingValues.jsonValues : InterestingValues.textValues
            var replacement = Array((rng.pick(pool) ?? "").utf8)
            if rng.chance(5) { replacement = [UInt8](repeating: UInt8(ascii: "9"), count: 1 + rng.below(100_000)) }
            return replace(&bytes, range, with: replacement, limit: limit)
        case .jsonNumberAtLimit:
            return replace(
                &bytes,
                range,
                with: Array((rng.pick(InterestingValues.jsonNumbers) ?? "0").utf8),
                limit: limit
            )
        case .jsonDeleteValue:
            // With its key when it has one: the member disappears (and leaves a stray comma the reader must skip).
            let keyed = map.spans(.jsonKey).last { $0.range.upperBound <= range.lowerBound }
            let start = keyed.flatMap { key in
                bytes[key.range.upperBound..<range.lowerBound].allSatisfy { $0 == 0x3A || $0 == 0x20 || $0 == 0x0A }
                    ? key.range.lowerBound : nil
            }
            bytes.removeSubrange((start ?? range.lowerBound)..<range.upperBound)
            return start ?? range.lowerBound
        case .jsonDuplicateValue:
            let piece = Array(bytes[range])
            let copies = rng.chance(20) ? 2 + rng.below(1000) : 1
            var inserted: [UInt8] = []
            for _ in 0..<copies { inserted += [UInt8(ascii: ",")] + piece }
            guard bytes.count + inserted.count <= limit else { return nil }
            bytes.insert(contentsOf: inserted, at: range.upperBound)
            return range.upperBound
        case .jsonRenameKey:
            let keys = map.spans(.jsonKey)
            let other = rng.pick(keys).map { Array(bytes[$0.range]) } ?? []
            let names: [[UInt8]] = [other, Array("\"\"".utf8), Array("\"__proto__\"".utf8), Array("\"\\u0000\"".utf8)]
            let replacement = rng.pick(names) ?? []
            return replace(&bytes, range, with: replacement, limit: limit)
        case .jsonDeepNesting:
            let depth = rng.chance(50) ? 100 + rng.below(60) : 400 + rng.below(20_000)
            let object = rng.chance(30)
            let open = object ? Array("{\"a\":".utf8) : [UInt8(ascii: "[")]
            let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
            var wrapped: [UInt8] = []
            wrapped.reserveCapacity(depth * (open.count + 1) + range.count)
            for _ in 0..<depth { wrapped += open }
            wrapped += bytes[range]
            wrapped += [UInt8](repeating: close, count: depth)
            return replace(&bytes, range, with: wrapped, limit: limit)
        case .jsonSwapValues:
            guard let other = rng.pick(map.spans(.jsonValue)), other.range.upperBound <= bytes.count else { return nil }
            return replace(&bytes, range, with: Array(bytes[other.range]), limit: limit)
        case .textDeleteLine:
            let end = range.upperBound < bytes.count ? range.upperBound + 1 : range.upperBound
            bytes.removeSubrange(range.lowerBound..<end)
            return range.lowerBound
        case .textDuplicateLine:
            let copies = rng.chance(10) ? 2 + rng.below(2000) : 1
            var inserted: [UInt8] = []
            for _ in 0..<copies { inserted += bytes[range] + [0x0A] }
            guard bytes.count + inserted.count <= limit else { return nil }
            bytes.insert(contentsOf: inserted, at: range.lowerBound)
            return range.lowerBound
        case .textSwapLines:
            guard let other = rng.pick(map.spans(.line)), other.range.upperBound <= bytes.count else { return nil }
            return replace(&bytes, range, with: Array(bytes[other.range]), limit: limit)
        case .octalField:
            let text = Array((rng.pick(InterestingValues.octalFields) ?? "").utf8)
            return overwrite(&bytes, range, with: text, pad: 0)
        case .headerBytes:
            let offset = range.lowerBound + rng.below(range.count)
            var value = rng.chance(50) ? (rng.pick(InterestingValues.bytes) ?? 0) : rng.byte()
            if value == bytes[offset] { value ^= 0xFF }
            bytes[offset] = value
            return offset
        case .schemaText:
            let token = Array((rng.pick(InterestingValues.sqlTokens) ?? "(").utf8)
            let at = range.lowerBound + rng.below(range.count)
            let piece = min(token.count, range.upperBound - at)
            return overwrite(&bytes, at..<(at + piece), with: token, pad: 0x20)
        default:
            return nil
        }
    }

    /// Sets a length or count to a limit, to zero, or just past its true value.
    private static func lengthField(
        _ bytes: inout [UInt8],
        _ offset: Int,
        width: Int,
        bigEndian: Bool,
        rng: inout SplitMix64
    ) -> Int? {
        guard let current = ByteFields.read(bytes, at: offset, width: width, bigEndian: bigEndian) else { return nil }
        let maximum: UInt64 = width >= 8 ? .max : (1 << (8 * UInt64(width))) - 1
        let candidates: [UInt64] = [
            0, 1, current &+ 1, current &- 1, current &* 2, current / 2, maximum, maximum / 2, maximum / 2 + 1,
            current &+ 4, current &+ 16,
        ]
        var value = (rng.pick(candidates) ?? 0) & maximum
        if value == current { value = current ^ 0x1 }
        ByteFields.write(value, into: &bytes, at: offset, width: width, bigEndian: bigEndian)
        return offset
    }

    private static func replace(_ bytes: inout [UInt8], _ range: Range<Int>, with new: [UInt8], limit: Int) -> Int? {
        guard bytes.count - range.count + new.count <= limit, bytes[range].elementsEqual(new) == false else {
            return nil
        }
        bytes.replaceSubrange(range, with: new)
        return range.lowerBound
    }

    /// Writes `new` over `range` without changing the length: cut to fit, padded with `pad`.
    private static func overwrite(_ bytes: inout [UInt8], _ range: Range<Int>, with new: [UInt8], pad: UInt8) -> Int? {
        guard !range.isEmpty else { return nil }
        var fitted = Array(new.prefix(range.count))
        fitted += [UInt8](repeating: pad, count: range.count - fitted.count)
        guard !bytes[range].elementsEqual(fitted) else { return nil }
        bytes.replaceSubrange(range, with: fitted)
        return range.lowerBound
    }
}
