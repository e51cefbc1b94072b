import APMInspectCore
import Synchronization

/// The debug information given with `--dsym`, indexed by UUID and architecture.
///
/// Indexing reads each candidate file's Mach-O headers (through the ``DebugImageLoader``) and keeps where each
/// slice lives; nothing else is kept. A slice is opened the first time a report asks for its UUID, and a bounded
/// number of opened images stays cached (least recently used goes first), so a folder of a thousand reports
/// against ten dSYMs opens each dSYM about once, in bounded memory. Safe to share between worker threads.
public final class DSYMStore: SymbolSource, Sendable {
    /// One indexed slice and where it is.
    public struct Entry: Sendable, Hashable {
        /// What the slice's header says: UUID, architecture, addresses.
        public var slice: DebugSlice
        /// The file and offset to open when a report asks for this slice.
        public var location: DSYMLocation

        package init(slice: DebugSlice, location: DSYMLocation) {
            self.slice = slice
            self.location = location
        }
    }

    /// Every slice indexed, in the order the paths were given.
    public let entries: [Entry]
    /// What discovery could not use: unreadable paths, garbage in a dSYM's place, link loops, duplicates.
    public let findings: [Diagnostic]
    /// The bounds on files read and slices kept open.
    public let limits: DSYMStoreLimits
    private let loader: any DebugImageLoader
    private let byUUID: [String: [Int]]
    private let cache: Mutex<Cache>

    /// Indexes `paths`: `.dSYM` bundles, Mach-O files (thin or fat), folders (searched recursively) and zip
    /// archives of dSYMs.
    public convenience init(
        paths: [String],
        loader: any DebugImageLoader,
        limits: DSYMStoreLimits = DSYMStoreLimits()
    ) {
        let discovery = Discovery(loader: loader, limits: limits)
        let (entries, findings) = discovery.index(paths.map { RawPath($0) })
        self.init(entries: entries, findings: findings, loader: loader, limits: limits)
    }

    /// A store over entries already known (tests, or an index built elsewhere).
    public init(
        entries: [Entry],
        findings: [Diagnostic] = [],
        loader: any DebugImageLoader,
        limits: DSYMStoreLimits = DSYMStoreLimits()
    ) {
        self.entries = entries
        self.findings = findings
        self.loader = loader
        self.limits = limits
        var table: [String: [Int]] = [:]
        for (k, entry) in entries.enumerated() { table[entry.slice.uuid, default: []].append(k) }
        byUUID = table
        cache = Mutex(Cache())
    }

    /// How many images were opened (read and indexed) so far: what the cache saves shows here.
    package var openedCount: Int { cache.withLock { $0.opened } }

    /// The debug image for `uuid` and `arch`, or why there is none.
    public func image(uuid: String, arch: String?) -> SymbolLookup {
        guard let candidates = byUUID[uuid.lowercased()], let first = candidates.first else { return .missing }
        // A UUID names one slice; the architecture only breaks a tie between copies of it.
        let chosen = candidates.first { arch != nil && entries[$0].slice.arch == arch } ?? first
        if let cached = cache.withLock({ $0.lookup(chosen) }) { return cached }
        // Opened outside the lock: other threads go on with other images meanwhile.
        let result = open(entries[chosen])
        cache.withLock { $0.store(result, for: chosen, capacity: limits.openImages) }
        return result
    }

    private func open(_ entry: Entry) -> SymbolLookup {
        if case .dyldCacheImage(let cache, _) = entry.location {
            return Self.openCached(entry, cache: cache)
        }
        // A library without DWARF is read in parts: its symbol tables are all that name its frames.
        if case .file(let path) = entry.location, let resolver = loader.open(atPath: path, slice: entry.slice) {
            return .found(
                SymbolImage(
                    textVMAddress: entry.slice.textVMAddress,
                    resolver: resolver,
                    origin: entry.location.description,
                    isARM32: entry.slice.isARM32
                )
            )
        }
        do throws(SymbolicationError) {
            let bytes = try Self.readBytes(entry.location, limits: limits)
            let resolver = try loader.open(bytes, slice: entry.slice)
            return .found(
                SymbolImage(
                    textVMAddress: entry.slice.textVMAddress,
                    resolver: resolver,
                    origin: entry.location.description,
                    isARM32: entry.slice.isARM32
                )
            )
        } catch {
            return .failed(error)
        }
    }

    /// The bytes of the file at `location`.
    static func readBytes(_ location: DSYMLocation, limits: DSYMStoreLimits) throws(SymbolicationError) -> [UInt8] {
        do throws(InputError) {
            switch location {
            case .file(let path):
                return try FileReading.contents(at: path, maxBytes: limits.maxFileBytes)
            case .dyldCacheImage(let cache, _):
                throw InputError(.unreadable, "\(cache.display) is a dyld shared cache, not read whole")
            case .zipEntry(let archive, let index, _):
                let reader = try ZipReader(
                    path: archive,
                    limits: ZipReader.Limits(maxEntries: limits.maxZipEntries, expansion: limits.zipExpansion)
                )
                guard reader.entries.indices.contains(index) else {
                    throw InputError(.unreadable, "the archive changed since it was indexed")
                }
                return try reader.contents(of: reader.entries[index])
            }
        } catch {
            throw SymbolicationError(.unreadable, "\(location): \(error.message)", at: error.location)
        }
    }

    /// Opened images, least recently used first; failures are kept too, so a broken dSYM is read once.
    private struct Cache: ~Copyable {
        var results: [Int: SymbolLookup] = [:]
        var order: [Int] = []
        var opened = 0

        mutating func lookup(_ key: Int) -> SymbolLookup? {
            guard let result = results[key] else { return nil }
            if let position = order.firstIndex(of: key) {
                order.remove(at: position)
                order.append(key)
            }
            return result
        }

        mutating func store(_ result: SymbolLookup, for key: Int, capacity: Int) {
            opened += 1
            if results[key] == nil { order.append(key) }
            results[key] = result
            while order.count > max(1, capacity) {
                results[order.removeFirst()] = nil
            }
        }
    }
}
