import APMInspectCore
import FuzzSupport

/// The output encoder (SortedJSONEncoder over JSONTree) on every value a lenient parse can produce: the output
/// must be strict JSON that encodes to the same bytes again, compact and pretty must hold the same value, and the
/// decoded value must survive Codable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONEncoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let document = try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 64)) else { return 0 }
    let value = document.root.materialized
    fuzzCheckEncodes(value, "the parsed value")
    guard let compact = try? SortedJSONEncoder().encode(value),
        let pretty = try? SortedJSONEncoder(pretty: true).encode(value),
        let fromCompact = try? JSONDocument(bytes: Array(compact.utf8), options: .strict),
        let fromPretty = try? JSONDocument(bytes: Array(pretty.utf8), options: .strict)
    else { fatalError("fuzz property violated: compact or pretty output does not parse") }
    fuzzRequire(
        fromCompact.root.materialized == fromPretty.root.materialized,
        "compact and pretty output hold different values"
    )
    return 0
}
