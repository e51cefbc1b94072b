import APMInspectCore
import FuzzSupport
import JetsamParsing

/// JetsamEvent, full model.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJetsam(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let parser = JetsamParser()
    let first = try? parser.parse(bytes)
    let second = try? parser.parse(bytes)
    fuzzRequire(first == second, "two parses of the same bytes differ")
    if let first {
        fuzzCheckEncodes(first.event, "the JetsamEvent")
        fuzzCheckEncodes(first.diagnostics, "the diagnostics")
    }
    return 0
}
