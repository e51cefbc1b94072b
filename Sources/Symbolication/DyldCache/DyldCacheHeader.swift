import APMInspectCore

/// The fields of a `dyld_cache_header` the symbol reader uses, each read only when the header is long enough to
/// hold it (the header's length is its `mappingOffset`: the mapping table follows it, and older caches have
/// shorter headers, so a field past it is absent, not zero).
struct DyldCacheHeader: Sendable {
    /// `arm64e`, `arm64`, `x86_64` …: the architecture the magic names (`dyld_v1  arm64e`).
    var architecture: String
    var mappingOffset: UInt32
    var mappingCount: UInt32
    /// The `dyld_cache_image_info` table: the newer fields at 0x1C0/0x1C4 when present and set, else the old
    /// ones at 0x18/0x1C.
    var imagesOffset: UInt32
    var imagesCount: UInt32
    var localSymbolsOffset: UInt64
    var localSymbolsSize: UInt64
    var uuid: [UInt8]
    var imagesTextOffset: UInt64
    var imagesTextCount: UInt64
    var subCacheArrayOffset: UInt32
    var subCacheArrayCount: UInt32
    /// The UUID of the `.symbols` file holding the local symbols; nil when the header has no such field or it is 0.
    var symbolFileUUID: [UInt8]?

    /// One `dyld_cache_mapping_info`: unslid addresses `address ..< address + size` are the file's bytes at
    /// `fileOffset`.
    struct Mapping: Sendable {
        var address: UInt64
        var size: UInt64
        var fileOffset: UInt64
    }

    static let magicPrefix = Array("dyld_v1".utf8)

    /// Field offsets (dyld's `dyld_cache_format.h`).
    enum Field {
        static let mappingOffset = 0x10
        static let imagesOffsetOld = 0x18
        static let localSymbolsOffset = 0x48
        static let uuid = 0x58
        static let imagesTextOffset = 0x88
        static let subCacheArrayOffset = 0x188
        static let symbolFileUUID = 0x190
        static let imagesOffset = 0x1C0
        static let cacheSubType = 0x1C8
    }

    /// True when `prefix` starts with the dyld cache magic.
    static func hasMagic(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.prefix(magicPrefix.count).elementsEqual(magicPrefix)
    }

    init(_ bytes: MachOBytes, path: RawPath) throws(DyldCacheProblem) {
        guard let magic = bytes.copy(at: 0, count: 16), Self.hasMagic(magic) else {
            throw DyldCacheProblem.truncated("\(path.display): no dyld_v1 magic in a 16-byte header")
        }
        architecture = String(
            decoding: magic[7...].filter { $0 != 0x20 && $0 != 0 },
            as: UTF8.self
        )
        guard let mappingOffset = bytes.u32(at: Field.mappingOffset, littleEndian: true),
            let mappingCount = bytes.u32(at: Field.mappingOffset + 4, littleEndian: true),
            let imagesOffsetOld = bytes.u32(at: Field.imagesOffsetOld, littleEndian: true),
            let imagesCountOld = bytes.u32(at: Field.imagesOffsetOld + 4, littleEndian: true)
        else {
            throw DyldCacheProblem.truncated(
                "\(path.display): the cache header is cut off (\(bytes.count) bytes, 32 at least)"
            )
        }
        guard mappingOffset >= 0x20, mappingCount <= DyldCacheLimits.maxMappings else {
            throw DyldCacheProblem.truncated(
                "\(path.display): the header's mappingOffset (\(mappingOffset)) or mappingCount (\(mappingCount)) "
                    + "cannot be a cache's"
            )
        }
        self.mappingOffset = mappingOffset
        self.mappingCount = mappingCount
        let length = Int(mappingOffset)
        /// A field is read only when the header (up to mappingOffset) holds it.
        func u32(_ at: Int) -> UInt32? { at + 4 <= length ? bytes.u32(at: at, littleEndian: true) : nil }
        func u64(_ at: Int) -> UInt64? { at + 8 <= length ? bytes.u64(at: at, littleEndian: true) : nil }
        func uuidField(_ at: Int) -> [UInt8]? { at + 16 <= length ? bytes.copy(at: at, count: 16) : nil }
        if let offset = u32(Field.imagesOffset), let count = u32(Field.imagesOffset + 4), count > 0 {
            imagesOffset = offset
            imagesCount = count
        } else {
            imagesOffset = imagesOffsetOld
            imagesCount = imagesCountOld
        }
        localSymbolsOffset = u64(Field.localSymbolsOffset) ?? 0
        localSymbolsSize = u64(Field.localSymbolsOffset + 8) ?? 0
        uuid = uuidField(Field.uuid) ?? [UInt8](repeating: 0, count: 16)
        imagesTextOffset = u64(Field.imagesTextOffset) ?? 0
        imagesTextCount = u64(Field.imagesTextOffset + 8) ?? 0
        subCacheArrayOffset = u32(Field.subCacheArrayOffset) ?? 0
        subCacheArrayCount = u32(Field.subCacheArrayOffset + 4) ?? 0
        let symbolFile = uuidField(Field.symbolFileUUID)
        symbolFileUUID = symbolFile.flatMap { $0.allSatisfy { $0 == 0 } ? nil : $0 }
    }

    /// Local-symbol entries of caches with a `symbolFileUUID` field carry 64-bit VM offsets; older ones 32-bit
    /// file offsets (dyld decides on the header's length the same way).
    var localEntriesAre64Bit: Bool { Int(mappingOffset) >= Field.symbolFileUUID }

    /// Subcache entries of caches with a `cacheSubType` field carry a file suffix (56 bytes); older ones do not
    /// (24 bytes), and their files are `.1`, `.2` ….
    var subCacheEntriesHaveSuffix: Bool { Int(mappingOffset) > Field.cacheSubType }

    /// The mappings in `table` (32 bytes each).
    static func mappings(_ table: MachOBytes, count: Int) -> [Mapping] {
        (0..<count).compactMap { index in
            let at = index * 32
            guard let address = table.u64(at: at, littleEndian: true),
                let size = table.u64(at: at + 8, littleEndian: true),
                let fileOffset = table.u64(at: at + 16, littleEndian: true)
            else { return nil }
            return Mapping(address: address, size: size, fileOffset: fileOffset)
        }
    }
}
