import APMInspectCore
import Symbolication
import Synchronization

/// The local sources first, then the servers: what `--symbols` gives when one of its sources is on the network.
///
/// Only the UUIDs no local source has are fetched, each once per run; a downloaded file is indexed like a local
/// one (a Mach-O, a dSYM's DWARF file or a zip of dSYMs), so every command names frames alike however the dSYM
/// was found.
package final class NetworkSymbolSource: SymbolSource, Sendable {
    package let local: (any SymbolSource)?
    package let fetcher: SymbolFetcher
    private let loader: any DebugImageLoader
    private let stores = Mutex<[String: DSYMStore?]>([:])

    package init(local: (any SymbolSource)?, fetcher: SymbolFetcher, loader: any DebugImageLoader) {
        self.local = local
        self.fetcher = fetcher
        self.loader = loader
    }

    package func image(uuid: String, arch: String?) -> SymbolLookup {
        if let local {
            let answer = local.image(uuid: uuid, arch: arch)
            if case .missing = answer {} else { return answer }
        }
        let key = uuid.filter { $0 != "-" }.lowercased()
        if let known = stores.withLock({ $0[key] }) {
            return known?.image(uuid: key, arch: arch) ?? .missing
        }
        var store: DSYMStore?
        if let path = fetcher.file(forUUID: key) {
            let opened = DSYMStore(paths: [path], loader: loader)
            if opened.entries.contains(where: { $0.slice.uuid == key }) {
                store = opened
            } else {
                fetcher.discard(path, uuid: key, because: "is not a dSYM, Mach-O file or zip holding that UUID")
            }
        }
        stores.withLock { $0[key] = .some(store) }
        return store?.image(uuid: key, arch: arch) ?? .missing
    }
}
