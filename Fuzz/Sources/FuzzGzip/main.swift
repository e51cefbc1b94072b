import FuzzSupport

/// gzip and zlib streams: one-shot against streaming decompression.
///
/// The properties are ``FuzzChecks/gzip(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.gzip(fuzzBytes(start, count)))
    return 0
}
