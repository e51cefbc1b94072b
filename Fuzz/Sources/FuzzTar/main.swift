import APMInspectCore
import FuzzSupport

/// Tar archives in memory, plain or gzip-compressed, with small limits so every limit path is reachable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTar(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let options = TarReader.Options(maxTotalBytes: 4 << 20, maxEntries: 200, maxEntryBytes: 256 << 10)
    let reader = TarReader(options: options)
    func entries() -> ([TarEntry], [Diagnostic])? {
        var found: [TarEntry] = []
        guard let diagnostics = try? reader.read(bytes: bytes, { found.append($0) }) else { return nil }
        return (found, diagnostics)
    }
    let first = entries()
    let second = entries()
    fuzzRequire(first?.0 == second?.0 && first?.1 == second?.1, "two reads of the same archive differ")
    guard let (found, _) = first else { return 0 }
    fuzzRequire(found.count <= options.maxEntries, "more entries than the limit")
    for entry in found {
        fuzzRequire(!entry.path.hasPrefix("/"), "an absolute member path: \(entry.path)")
        fuzzRequire(!entry.path.split(separator: "/").contains(".."), "a member path that climbs: \(entry.path)")
        fuzzRequire(UInt64(entry.data.count) <= options.maxEntryBytes, "a member larger than the limit")
    }
    return 0
}
