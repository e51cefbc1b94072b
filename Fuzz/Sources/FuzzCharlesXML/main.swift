import APMInspectCore
import FuzzSupport
import HTTPCaptureParsing

/// Charles XML sessions (.chlsx), parsed with libxml2 (not instrumented: coverage is the mapping code's).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCharlesXML(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let reader = CharlesXMLReader()
    let first = try? reader.read(bytes)
    let second = try? reader.read(bytes)
    fuzzRequire(first?.0 == second?.0 && first?.1 == second?.1, "two reads of the same bytes differ")
    if let first {
        fuzzCheckEncodes(first.0, "the capture")
        fuzzCheckEncodes(first.1, "the diagnostics")
    }
    return 0
}
