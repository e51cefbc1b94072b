import APMInspectCore

/// A dyld shared cache as `ipsw extract --dyld` (or Xcode) leaves it: the main file, its subcaches (`.01`, `.02` …,
/// or `.1`, `.2` … in iOS 15's caches) and the `.symbols` file holding the local symbols Apple strips from the
/// mapped cache.
///
/// The system libraries of one OS build live only in this cache on a device, so a user with the build's IPSW can
/// name system frames from it on Linux: each image is found by its UUID, and its symbols are read from the cache's
/// shared `__LINKEDIT` (exported and other global symbols) and from the local-symbols table (Objective-C methods,
/// static functions). Only the header, the images table and one image's tables are read, in windows, never the
/// gigabytes of code and data.
final class DyldSharedCache: Sendable {
    /// One cached image: its UUID and where its `__TEXT` is, unslid.
    struct Image: Sendable {
        var uuid: [UInt8]
        /// Unslid address of the image's Mach-O header, which starts its `__TEXT` segment.
        var address: UInt64
        var textSize: UInt64
        /// Where the image's install name is in the main file, when the table says.
        var pathOffset: Int?

        /// The UUID as the crash model spells it: 32 lower-case hex digits.
        var plainUUID: String {
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: uuid.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
        }
    }

    let main: DyldCacheFile
    let subCaches: [DyldCacheFile]
    /// The file holding the `dyld_cache_local_symbols_info`: the `.symbols` file, or the main file for older caches.
    let localSymbolsFile: DyldCacheFile?
    let images: [Image]
    /// What is missing or wrong beside the main file (a subcache or the `.symbols` file): the images still index,
    /// with fewer symbols or none for those whose text is in a missing subcache.
    let problems: [DyldCacheProblem]

    /// The architecture the cache was built for (`arm64e`).
    var architecture: String { main.header.architecture }

    init(path: RawPath) throws(DyldCacheProblem) {
        let main = try DyldCacheFile(path: path)
        var problems: [DyldCacheProblem] = []
        let subCaches = Self.openSubCaches(of: main, problems: &problems)
        self.main = main
        self.subCaches = subCaches
        localSymbolsFile = Self.openLocalSymbols(of: main, problems: &problems)
        images = try Self.readImages(main: main, files: [main] + subCaches)
        self.problems = problems
    }

    /// The file and offset holding `count` bytes at unslid `address`, in the main file or a subcache.
    func locate(_ address: UInt64, count: Int) -> (file: DyldCacheFile, offset: Int)? {
        for file in [main] + subCaches {
            if let offset = file.fileOffset(ofAddress: address, count: count) { return (file, offset) }
        }
        return nil
    }

    /// `count` bytes at unslid `address`, or a problem saying what was to be read.
    func bytes(atAddress address: UInt64, count: Int, what: String) throws(DyldCacheProblem) -> [UInt8] {
        guard let (file, offset) = locate(address, count: count), let bytes = file.read(at: offset, count: count) else {
            throw DyldCacheProblem.truncated(
                "\(what) (\(count) bytes at address 0x\(String(address, radix: 16))) is in no mapping of "
                    + "\(main.path.display) or its subcaches"
            )
        }
        return bytes
    }

    /// The image's install name, when the table gives one inside the main file (at most 1 KiB of it).
    func installName(of image: Image) -> String? {
        guard let at = image.pathOffset, at > 0, at < main.size,
            let bytes = main.read(at: at, count: min(1024, main.size - at))
        else { return nil }
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    // MARK: - Opening

    private static func openSubCaches(of main: DyldCacheFile, problems: inout [DyldCacheProblem]) -> [DyldCacheFile] {
        let header = main.header
        let count = Int(header.subCacheArrayCount)
        guard count > 0 else { return [] }
        guard count <= DyldCacheLimits.maxSubCaches else {
            problems.append(.truncated("the cache names \(count) subcaches, more than \(DyldCacheLimits.maxSubCaches)"))
            return []
        }
        let entrySize = header.subCacheEntriesHaveSuffix ? 56 : 24
        guard let table = main.read(at: Int(header.subCacheArrayOffset), count: count * entrySize) else {
            problems.append(
                .truncated(
                    "the \(count) subcache entries at \(header.subCacheArrayOffset) lie past the end of the file"
                )
            )
            return []
        }
        var files: [DyldCacheFile] = []
        for index in 0..<count {
            let entry = Array(table[(index * entrySize)..<((index + 1) * entrySize)])
            let uuid = Array(entry[0..<16])
            var suffix: [UInt8]
            if header.subCacheEntriesHaveSuffix {
                let field = entry[24..<56]
                suffix = Array(field.prefix { $0 != 0 })
            } else {
                suffix = Array(".\(index + 1)".utf8)
            }
            // The suffix comes from the file: one that could leave the cache's folder is refused.
            guard !suffix.isEmpty, !suffix.contains(0x2F) else {
                problems.append(
                    DyldCacheProblem(
                        .symbolsDyldCacheMissingFile,
                        "subcache \(index + 1) has the file suffix \"\(TerminalText.escaped(String(decoding: suffix, as: UTF8.self)))\", which is not a suffix"
                    )
                )
                continue
            }
            let path = RawPath(bytes: main.path.bytes + suffix)
            do throws(DyldCacheProblem) {
                let file = try DyldCacheFile(path: path)
                guard file.header.uuid == uuid else {
                    problems.append(
                        DyldCacheProblem(
                            .symbolsDyldCacheMissingFile,
                            "the subcache \(path.display) is not the one the cache names (another UUID): not used"
                        )
                    )
                    continue
                }
                files.append(file)
            } catch {
                problems.append(
                    DyldCacheProblem(
                        .symbolsDyldCacheMissingFile,
                        "the subcache \(path.display) cannot be used (\(error.message)): images whose text is in it stay unnamed"
                    )
                )
            }
        }
        return files
    }

    private static func openLocalSymbols(of main: DyldCacheFile, problems: inout [DyldCacheProblem]) -> DyldCacheFile? {
        if main.header.localSymbolsOffset != 0, main.header.localSymbolsSize != 0 { return main }
        guard let expected = main.header.symbolFileUUID else { return nil }
        let path = RawPath(bytes: main.path.bytes + Array(".symbols".utf8))
        do throws(DyldCacheProblem) {
            let file = try DyldCacheFile(path: path)
            guard file.header.uuid == expected else {
                problems.append(
                    DyldCacheProblem(
                        .symbolsDyldCacheMissingFile,
                        "\(path.display) is not the cache's symbols file (another UUID): local symbols are not read"
                    )
                )
                return nil
            }
            return file
        } catch {
            problems.append(
                DyldCacheProblem(
                    .symbolsDyldCacheMissingFile,
                    "the symbols file \(path.display) cannot be used (\(error.message)): only exported and global "
                        + "symbols name frames"
                )
            )
            return nil
        }
    }

    /// The images, from the `dyld_cache_image_text_info` table (UUIDs given), else from the image table and each
    /// image's own LC_UUID.
    private static func readImages(main: DyldCacheFile, files: [DyldCacheFile]) throws(DyldCacheProblem) -> [Image] {
        let header = main.header
        if header.imagesTextCount > 0 {
            guard header.imagesTextCount <= UInt64(DyldCacheLimits.maxImages),
                let offset = MachOBytes.offset(header.imagesTextOffset)
            else {
                throw DyldCacheProblem.truncated(
                    "the cache lists \(header.imagesTextCount) images, more than \(DyldCacheLimits.maxImages)"
                )
            }
            let count = Int(header.imagesTextCount)
            let table = try main.window(at: offset, count: count * 32, what: "the \(count)-image text table")
            return (0..<count).compactMap { index in
                let at = index * 32
                guard let uuid = table.copy(at: at, count: 16),
                    let address = table.u64(at: at + 16, littleEndian: true),
                    let size = table.u32(at: at + 24, littleEndian: true),
                    let path = table.u32(at: at + 28, littleEndian: true)
                else { return nil }
                return Image(uuid: uuid, address: address, textSize: UInt64(size), pathOffset: Int(path))
            }
        }
        let count = Int(header.imagesCount)
        guard count > 0 else { return [] }
        guard count <= DyldCacheLimits.maxImages else {
            throw DyldCacheProblem.truncated("the cache lists \(count) images, more than \(DyldCacheLimits.maxImages)")
        }
        let table = try main.window(at: Int(header.imagesOffset), count: count * 32, what: "the \(count)-image table")
        let cache = files
        var images: [Image] = []
        for index in 0..<count {
            let at = index * 32
            guard let address = table.u64(at: at, littleEndian: true),
                let path = table.u32(at: at + 24, littleEndian: true)
            else { continue }
            // Without the text table, the UUID is the image's own LC_UUID, in its header at its address.
            guard let slice = try? Self.header(at: address, in: cache), let uuid = slice.uuid else { continue }
            let textSize = slice.segments.first { $0.name == "__TEXT" }?.vmSize ?? 0
            images.append(Image(uuid: uuid.bytes, address: address, textSize: textSize, pathOffset: Int(path)))
        }
        return images
    }

    /// The Mach-O header and load commands of the image at unslid `address`.
    static func header(at address: UInt64, in files: [DyldCacheFile]) throws(DyldCacheProblem) -> MachOSlice {
        func read(_ count: Int) -> [UInt8]? {
            for file in files {
                if let offset = file.fileOffset(ofAddress: address, count: count) {
                    return file.read(at: offset, count: count)
                }
            }
            return nil
        }
        let location = "the image header at address 0x\(String(address, radix: 16))"
        guard let head = read(32), let commands = MachOBytes(bytes: head).u32(at: 20, littleEndian: true),
            Int(commands) <= DyldCacheLimits.maxHeaderBytes - 32, let whole = read(32 + Int(commands))
        else { throw DyldCacheProblem.truncated("\(location) is not in the cache's mappings, or cut off") }
        do throws(SymbolicationError) {
            return try MachOSlice(file: MachOBytes(bytes: whole), offset: 0, size: whole.count, keyPrefix: "")
        } catch {
            throw DyldCacheProblem.truncated("\(location): \(error.message)")
        }
    }
}
