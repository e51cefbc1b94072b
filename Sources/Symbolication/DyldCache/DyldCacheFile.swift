import APMInspectCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One file of a dyld shared cache (the main cache, a subcache, the `.symbols` file), open for reads at offsets.
///
/// A cache runs to gigabytes: it is never read whole, only the windows its tables need, each checked against the
/// file's length first.
final class DyldCacheFile: Sendable {
    let path: RawPath
    let size: Int
    let header: DyldCacheHeader
    /// The file's mappings of the cache's unslid addresses.
    let mappings: [DyldCacheHeader.Mapping]
    private let descriptor: Int32

    /// Opens `path` and reads its header; throws a ``DyldCacheProblem`` when it is no cache or its header is cut.
    init(path: RawPath) throws(DyldCacheProblem) {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            throw DyldCacheProblem(.symbolsDyldCacheMissingFile, "cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0 else {
            close(fd)
            throw DyldCacheProblem(.symbolsDyldCacheMissingFile, "not a regular file")
        }
        let size = Int(info.st_size)
        let first = MachOFile.readWindow(fd, at: 0, count: min(size, DyldCacheLimits.headerBytes)) ?? []
        do throws(DyldCacheProblem) {
            let header = try DyldCacheHeader(MachOBytes(bytes: first), path: path)
            let count = Int(header.mappingCount)
            let table =
                count > 0 ? MachOFile.readWindow(fd, at: Int(header.mappingOffset), count: count * 32) ?? [] : []
            guard table.count == count * 32 else {
                throw DyldCacheProblem.truncated(
                    "the \(count) mappings at \(header.mappingOffset) lie past the end of the \(size)-byte file "
                        + path.display
                )
            }
            mappings = DyldCacheHeader.mappings(MachOBytes(bytes: table), count: count)
            self.header = header
        } catch {
            close(fd)
            throw error
        }
        self.path = path
        self.size = size
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Exactly `count` bytes at `offset`, or nil when the file does not hold them all.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, let end = MachOBytes.end(offset, count), end <= size else { return nil }
        guard count > 0 else { return [] }
        guard let bytes = MachOFile.readWindow(descriptor, at: offset, count: count), bytes.count == count else {
            return nil
        }
        return bytes
    }

    /// `count` bytes at `offset` as checked reads, or a problem naming what was to be read there.
    func window(at offset: Int, count: Int, what: String) throws(DyldCacheProblem) -> MachOBytes {
        guard let bytes = read(at: offset, count: count) else {
            throw DyldCacheProblem.truncated(
                "\(what) (\(count) bytes at \(offset)) lies past the end of the \(size)-byte file \(path.display)"
            )
        }
        return MachOBytes(bytes: bytes)
    }

    /// Whether the file maps `count` bytes at the unslid `address`, and where they are in it.
    func fileOffset(ofAddress address: UInt64, count: Int) -> Int? {
        for mapping in mappings {
            guard address >= mapping.address, address - mapping.address < mapping.size else { continue }
            let delta = address - mapping.address
            guard UInt64(count) <= mapping.size - delta,
                let (start, overflow) = Optional(mapping.fileOffset.addingReportingOverflow(delta)), !overflow,
                let offset = MachOBytes.offset(start), let end = MachOBytes.end(offset, count), end <= size
            else { return nil }
            return offset
        }
        return nil
    }
}
