import APMInspectCore
import FuzzSupport
import HTTPCaptureParsing

/// Charles JSON sessions (.chlsj), read from a lenient JSON document as the command does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCharlesJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let document = try? JSONDocument(bytes: bytes) else { return 0 }
    let reader = CharlesJSONReader()
    let first = try? reader.read(document)
    let second = try? reader.read(document)
    fuzzRequire(first?.0 == second?.0 && first?.1 == second?.1, "two reads of the same document differ")
    if let first {
        fuzzCheckEncodes(first.0, "the capture")
        fuzzCheckEncodes(first.1, "the diagnostics")
    }
    return 0
}
