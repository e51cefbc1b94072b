import APMInspectCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension DSYMStore {
    /// The store of every local place symbols were given: `--dsym` paths, then `--symbols` paths, searched as one
    /// set so that the same dSYM gives the same frames whichever way it was found (a dSYM wins over the binary
    /// with its UUID, wherever each was given).
    ///
    /// A `--symbols` folder's index is read from, and kept in, `cacheDirectory` (nil: no cache, every file read).
    /// - Returns: the store, and how many files of the folder sources were read and how many reused from the cache.
    package static func indexed(
        dsymPaths: [String],
        sourceFolders: [String],
        cacheDirectory: String?,
        loader: any DebugImageLoader = MachODebugImageLoader(),
        limits: DSYMStoreLimits = DSYMStoreLimits()
    ) -> (store: DSYMStore, read: Int, reused: Int) {
        var discovery = Discovery(loader: loader, limits: limits)
        var indexes: [DSYMFolderIndex] = []
        if let cacheDirectory {
            for folder in sourceFolders {
                let path = RawPath(folder)
                guard let info = Discovery.status(path), info.st_mode & S_IFMT == S_IFDIR else { continue }
                let index = DSYMFolderIndex(folder: path, cacheDirectory: cacheDirectory)
                discovery.folderIndexes[path.bytes] = index
                indexes.append(index)
            }
        }
        var (entries, findings) = discovery.index((dsymPaths + sourceFolders).map { RawPath($0) })
        for index in indexes {
            if let finding = index.save() { findings.append(finding) }
        }
        let store = DSYMStore(entries: entries, findings: findings, loader: loader, limits: limits)
        return (store, indexes.reduce(0) { $0 + $1.read }, indexes.reduce(0) { $0 + $1.reused })
    }
}
