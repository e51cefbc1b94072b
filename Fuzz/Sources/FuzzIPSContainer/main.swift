import APMInspectCore
import FuzzSupport

/// The `.ips` container: header line, body split and the lenient and strict JSON body parses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPSContainer(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let container = IPSContainer(bytes: bytes)
    let again = IPSContainer(bytes: bytes)
    fuzzRequire(
        container.header == again.header && container.body == again.body && container.bodyKind == again.bodyKind
            && container.diagnostics == again.diagnostics,
        "two splits of the same bytes differ"
    )
    fuzzRequire(
        container.bodyOrigin.byteOffset + container.body.count == bytes.count,
        "the body is not the tail of the file"
    )
    if let header = container.header { fuzzCheckEncodes(header, "the IPS header") }
    if let document = try? container.parseJSONBody() {
        fuzzCheckEncodes(document.root.materialized, "the lenient body")
        if let strict = try? container.parseJSONBody(options: .strict) {
            fuzzRequire(
                strict.root.materialized == document.root.materialized,
                "strict and lenient parses of the body disagree"
            )
        }
    }
    return 0
}
