import InputMutation
import LibFuzzerMutate

/// A libFuzzer custom mutator for the symbol targets: one mutation in three is a DWARF structure mutator of the
/// InputMutation engine (the same ones `apm-inspect fuzz` uses: empty entry formats with huge counts, programs
/// shared by headers, versions, forms, 64-bit DWARF), the others libFuzzer's own.
///
/// A harness calls it from its `LLVMFuzzerCustomMutator` with the family its input is.
public func fuzzStructureMutate(
    _ data: UnsafeMutablePointer<UInt8>,
    _ size: Int,
    _ maxSize: Int,
    _ seed: UInt32,
    family: InputFamily
) -> Int {
    var rng = SplitMix64.forIteration(UInt64(seed), seed: 0x4446)
    guard rng.chance(33) else { return LLVMFuzzerMutate(data, size, maxSize) }
    let input = MutationInput(bytes: Array(UnsafeBufferPointer(start: data, count: size)), family: family)
    let engine = MutationEngine(maxOutputBytes: maxSize)
    let kinds = engine.applicable(to: input).filter { $0.rawValue.hasPrefix("dwarf.") }
    guard let kind = rng.pick(kinds), let (bytes, _) = engine.apply(kind, to: input, rng: &rng),
        bytes.count <= maxSize
    else { return LLVMFuzzerMutate(data, size, maxSize) }
    bytes.withUnsafeBufferPointer { buffer in
        if let base = buffer.baseAddress { data.update(from: base, count: buffer.count) }
    }
    return bytes.count
}
