import FuzzSupport

/// The tar reader.
///
/// The properties are ``FuzzChecks/tar(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTar(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.tar(fuzzBytes(start, count)))
    return 0
}
