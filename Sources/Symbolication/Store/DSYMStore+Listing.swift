import APMInspectCore

extension DSYMStore {
    /// Every slice found under one path, each copy kept, in the order found: what `apm-inspect uuid` lists.
    ///
    /// The search is the store's own (the same files are found, by content, in folders, bundles and zips of dSYMs),
    /// so a UUID listed here is one `--dsym` would find.
    package static func listing(
        of path: RawPath,
        loader: any DebugImageLoader = MachODebugImageLoader(),
        limits: DSYMStoreLimits = DSYMStoreLimits()
    ) -> (entries: [Entry], findings: [LocatedFinding]) {
        var discovery = Discovery(loader: loader, limits: limits)
        discovery.keepsEveryCopy = true
        return discovery.indexLocated([path])
    }
}
