import FuzzSupport

@testable import APMInspectCore

/// The three JSON tape builders, differentially: the fast strict builder, the repairing builder in strict mode,
/// and the repairing builder in lenient mode must build the same tape wherever the stricter one accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONTape(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: start, count: count)
    let limits = JSONParseOptions(maxDepth: 64)
    var fast = JSONFastTapeBuilder(buffer: buffer, maxDepth: limits.maxDepth)
    let fastTape: [JSONNode]? = fast.build() ? fast.nodes.toArray() : nil
    fast.nodes.release()

    var strictOptions = limits
    strictOptions.lenient = false
    var strict = JSONTapeBuilder(buffer: buffer, options: strictOptions)
    let strictRoot = try? strict.build()
    let strictTape = strictRoot.map { _ in strict.nodes.toArray() }
    strict.nodes.release()

    var lenient = JSONTapeBuilder(buffer: buffer, options: limits)
    let lenientRoot = try? lenient.build()
    let lenientTape = lenientRoot.map { _ in lenient.nodes.toArray() }
    let lenientDiagnostics = lenient.diagnostics
    lenient.nodes.release()

    if let fastTape {
        guard let strictTape else { fatalError("fuzz property violated: the fast builder accepts what strict refuses") }
        fuzzRequire(strictRoot == 1, "strict gives root \(String(describing: strictRoot)) for one value")
        requireSameTape(fastTape, strictTape, "fast", "strict")
    }
    if let strictTape {
        guard let lenientTape else { fatalError("fuzz property violated: lenient refuses what strict accepts") }
        fuzzRequire(lenientRoot == strictRoot, "strict and lenient disagree on the root")
        // Notes (a skipped byte order mark) are not repairs.
        let repairs = lenientDiagnostics.filter { $0.severity >= .warning }
        fuzzRequire(repairs.isEmpty, "lenient repaired strict JSON: \(repairs)")
        requireSameTape(strictTape, lenientTape, "strict", "lenient")
    }
    // Whatever lenient makes of the input must print as strict JSON.
    if lenientTape != nil, let document = try? JSONDocument(bytes: Array(buffer), options: limits) {
        fuzzCheckEncodes(document.root.materialized, "the lenient document")
    }
    return 0
}

/// Compares two tapes node by node: kind, flags, byte range, skip index and child count.
///
/// Only the fast builder stores small integers in the node (``JSONNode/smallIntegerFlag``): that flag and a
/// number's count are a cache, not part of the tape's meaning.
func requireSameTape(_ a: [JSONNode], _ b: [JSONNode], _ nameA: String, _ nameB: String) {
    fuzzRequire(a.count == b.count, "\(nameA) has \(a.count) nodes, \(nameB) \(b.count)")
    let cache = JSONNode.smallIntegerFlag
    for (index, (x, y)) in zip(a, b).enumerated() {
        let isNumber = x.kind == .number
        fuzzRequire(
            x.kind == y.kind && x.flags & ~cache == y.flags & ~cache && x.start == y.start && x.end == y.end
                && x.next == y.next && (isNumber || x.count == y.count),
            "node \(index) differs: \(nameA) \(x) vs \(nameB) \(y)"
        )
    }
}
