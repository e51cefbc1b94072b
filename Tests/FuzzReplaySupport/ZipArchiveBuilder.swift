import CZlib

/// Zip archives built here, byte by byte, as `zip` lays them out: local headers and data, then the central
/// directory, then the end record (and zip64 records when asked).
public struct ZipArchiveBuilder {
    public struct Member {
        public var name: [UInt8]
        public var data: [UInt8]
        public var deflate: Bool
        /// Overrides for hostile archives.
        public var declaredSize: UInt64?
        public var crc: UInt32?
        public var flags: UInt16 = 0
    }

    public var members: [Member] = []
    public var zip64 = false
    public var comment: [UInt8] = []

    public init() {}

    public mutating func add(_ name: String, _ data: [UInt8], deflate: Bool = true) {
        members.append(Member(name: Array(name.utf8), data: data, deflate: deflate, declaredSize: nil, crc: nil))
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// Raw deflate: the zlib stream without its 2-byte header and 4-byte checksum.
    public static func rawDeflate(_ bytes: [UInt8]) -> [UInt8] {
        let wrapped = Compressing.deflate(bytes, gzip: false)
        return Array(wrapped.dropFirst(2).dropLast(4))
    }

    public func build() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ value: UInt16, _ into: inout [UInt8]) { into += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func u32(_ value: UInt32, _ into: inout [UInt8]) {
            u16(UInt16(value & 0xFFFF), &into)
            u16(UInt16(value >> 16), &into)
        }
        func u64(_ value: UInt64, _ into: inout [UInt8]) {
            u32(UInt32(value & 0xFFFF_FFFF), &into)
            u32(UInt32(value >> 32), &into)
        }
        for member in members {
            let stored = member.deflate ? Self.rawDeflate(member.data) : member.data
            let crc = member.crc ?? Self.crc32(member.data)
            let size = member.declaredSize ?? UInt64(member.data.count)
            let offset = UInt64(out.count)
            u32(0x0403_4B50, &out)
            u16(20, &out)
            u16(member.flags, &out)
            u16(member.deflate ? 8 : 0, &out)
            u32(0, &out)
            u32(crc, &out)
            u32(UInt32(stored.count), &out)
            u32(UInt32(truncatingIfNeeded: size), &out)
            u16(UInt16(member.name.count), &out)
            u16(0, &out)
            out += member.name
            out += stored
            var extra: [UInt8] = []
            if zip64 {
                u16(1, &extra)
                u16(24, &extra)
                u64(size, &extra)
                u64(UInt64(stored.count), &extra)
                u64(offset, &extra)
            }
            u32(0x0201_4B50, &central)
            u16(0x031E, &central)
            u16(20, &central)
            u16(member.flags, &central)
            u16(member.deflate ? 8 : 0, &central)
            u32(0, &central)
            u32(crc, &central)
            u32(zip64 ? 0xFFFF_FFFF : UInt32(stored.count), &central)
            u32(zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: size), &central)
            u16(UInt16(member.name.count), &central)
            u16(UInt16(extra.count), &central)
            u16(0, &central)
            u16(0, &central)
            u16(0, &central)
            u32(0, &central)
            u32(zip64 ? 0xFFFF_FFFF : UInt32(offset), &central)
            central += member.name
            central += extra
        }
        let centralOffset = out.count
        out += central
        if zip64 {
            let recordOffset = out.count
            u32(0x0606_4B50, &out)
            u64(44, &out)
            u16(45, &out)
            u16(45, &out)
            u32(0, &out)
            u32(0, &out)
            u64(UInt64(members.count), &out)
            u64(UInt64(members.count), &out)
            u64(UInt64(central.count), &out)
            u64(UInt64(centralOffset), &out)
            u32(0x0706_4B50, &out)
            u32(0, &out)
            u64(UInt64(recordOffset), &out)
            u32(1, &out)
        }
        u32(0x0605_4B50, &out)
        u16(0, &out)
        u16(0, &out)
        u16(zip64 ? 0xFFFF : UInt16(members.count), &out)
        u16(zip64 ? 0xFFFF : UInt16(members.count), &out)
        u32(zip64 ? 0xFFFF_FFFF : UInt32(central.count), &out)
        u32(zip64 ? 0xFFFF_FFFF : UInt32(centralOffset), &out)
        u16(UInt16(comment.count), &out)
        out += comment
        return out
    }
}
