import APMInspectCore

extension DSYMStore {
    /// Opens the image of `entry` in the dyld shared cache at `cache`: its symbol tables, read from the cache's
    /// files in windows.
    ///
    /// The cache's header and tables are read again for each image opened (a few kilobytes for thousands of
    /// images), so nothing of a multi-gigabyte cache is kept between lookups but the opened images' symbols.
    static func openCached(_ entry: Entry, cache: RawPath) -> SymbolLookup {
        do throws(DyldCacheProblem) {
            let shared = try DyldSharedCache(path: cache)
            guard let image = shared.image(uuid: entry.slice.uuid) else {
                return .failed(SymbolicationError(.unreadable, "\(cache.display) no longer holds the image"))
            }
            let table = try shared.symbolTable(for: image)
            return .found(
                SymbolImage(
                    textVMAddress: image.address,
                    resolver: table,
                    origin: entry.location.description,
                    isARM32: entry.slice.isARM32
                )
            )
        } catch {
            return .failed(error.error)
        }
    }
}
