import CZlib
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// Zip archives built here, byte by byte, as `zip` lays them out: local headers and data, then the central
/// directory, then the end record (and zip64 records when asked).
struct ZipArchiveBuilder {
    struct Member {
        var name: [UInt8]
        var data: [UInt8]
        var deflate: Bool
        /// Overrides for hostile archives.
        var declaredSize: UInt64?
        var crc: UInt32?
        var flags: UInt16 = 0
    }

    var members: [Member] = []
    var zip64 = false
    var comment: [UInt8] = []

    mutating func add(_ name: String, _ data: [UInt8], deflate: Bool = true) {
        members.append(Member(name: Array(name.utf8), data: data, deflate: deflate))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    /// Raw deflate: the zlib stream without its 2-byte header and 4-byte checksum.
    static func rawDeflate(_ bytes: [UInt8]) -> [UInt8] {
        let wrapped = Compressing.deflate(bytes, gzip: false)
        return Array(wrapped.dropFirst(2).dropLast(4))
    }

    func build() -> [UInt8] {
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

@Suite struct ZipReaderTests {
    private let dwarf = Array((0..<3000).map { "DW_TAG_subprogram \($0)\n" }.joined().utf8)

    @Test func readsStoredAndDeflatedEntriesInDirectoryOrder() throws {
        var builder = ZipArchiveBuilder()
        builder.add("App.app.dSYM/Contents/Info.plist", Array("<plist/>".utf8), deflate: false)
        builder.add("App.app.dSYM/Contents/Resources/DWARF/App", dwarf)
        builder.comment = Array("made by a test".utf8)
        let bytes = builder.build()
        let reader = try ZipReader(bytes: bytes)
        #expect(reader.entries.map(\.name) == ["App.app.dSYM/Contents/Info.plist", "App.app.dSYM/Contents/Resources/DWARF/App"])
        #expect(reader.entries.map(\.method) == [0, 8])
        #expect(try reader.contents(of: reader.entries[0]) == Array("<plist/>".utf8))
        #expect(try reader.contents(of: reader.entries[1]) == dwarf)
        #expect(reader.entries[1].compressedSize < UInt64(dwarf.count))
    }

    @Test func readsZip64EndRecordsAndExtraFields() throws {
        var builder = ZipArchiveBuilder()
        builder.zip64 = true
        builder.add("a/DWARF/App", dwarf)
        builder.add("b.txt", Array("b".utf8), deflate: false)
        let reader = try ZipReader(bytes: builder.build())
        #expect(reader.entries.count == 2)
        #expect(reader.entries[1].localHeaderOffset > 0)
        #expect(reader.entries[0].uncompressedSize == UInt64(dwarf.count))
        #expect(try reader.contents(of: reader.entries[0]) == dwarf)
        #expect(try reader.contents(of: reader.entries[1]) == Array("b".utf8))
    }

    @Test func readsFromAFileAsFromMemory() throws {
        var builder = ZipArchiveBuilder()
        builder.add("x/DWARF/App", dwarf)
        let folder = try TemporaryTestFolder()
        let path = try folder.write(builder.build(), named: "appDsyms.zip")
        let reader = try ZipReader(path: RawPath(path))
        #expect(reader.entries.map(\.name) == ["x/DWARF/App"])
        #expect(try reader.contents(of: reader.entries[0]) == dwarf)
    }

    @Test func flagsNamesThatWouldLeaveAFolder() throws {
        let names = ["../evil", "/etc/passwd", "a/../../b", "C:\\x", "a\\b", "ok/name.dSYM/x", "dots..fine/x"]
        let safe = names.map { ZipEntry(rawName: Array($0.utf8), index: 0, method: 0, flags: 0, crc32: 0,
                                        compressedSize: 0, uncompressedSize: 0, localHeaderOffset: 0).isSafePath }
        #expect(safe == [false, false, false, false, false, true, true])
    }

    @Test func refusesABombPastTheExpansionLimit() throws {
        // 8 MiB of zeros deflate to about 8 KiB: past a 100:1 ratio with a 1 MiB floor.
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        var builder = ZipArchiveBuilder()
        builder.add("bomb", zeros)
        // The directory also lies about the size, so only the inflater's bound stops it.
        builder.members[0].declaredSize = 1000
        let limits = ZipReader.Limits(expansion: ExpansionLimit(maxBytes: 64 << 20, maxRatio: 100, floorBytes: 1 << 20))
        let reader = try ZipReader(bytes: builder.build(), limits: limits)
        #expect(throws: InputError.self) { try reader.contents(of: reader.entries[0]) }
        do {
            _ = try reader.contents(of: reader.entries[0])
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("bomb"))
        }
        // Declared honestly, it is refused before a byte is inflated.
        builder.members[0].declaredSize = nil
        let honest = try ZipReader(bytes: builder.build(), limits: limits)
        do {
            _ = try honest.contents(of: honest.entries[0])
            Issue.record("a bomb was inflated")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test func detectsDamagedDataAndLyingHeaders() throws {
        var builder = ZipArchiveBuilder()
        builder.add("a", dwarf)
        builder.members[0].crc = 0x1234_5678
        let badCRC = try ZipReader(bytes: builder.build())
        #expect(throws: InputError.self) { try badCRC.contents(of: badCRC.entries[0]) }

        var encrypted = ZipArchiveBuilder()
        encrypted.add("secret", dwarf)
        encrypted.members[0].flags = 1
        let locked = try ZipReader(bytes: encrypted.build())
        do {
            _ = try locked.contents(of: locked.entries[0])
            Issue.record("an encrypted entry was read")
        } catch {
            #expect(error.message.contains("encrypted"))
        }

        // The end record claims more entries than its directory can hold.
        var honest = ZipArchiveBuilder()
        honest.add("a", dwarf)
        var lying = honest.build()
        let end = lying.count - 22
        lying[end + 10] = 0xFF
        lying[end + 11] = 0x7F
        #expect(throws: InputError.self) { try ZipReader(bytes: lying) }

        // The directory's offset points past the end record.
        var outside = honest.build()
        outside[outside.count - 22 + 16] = 0xFF
        outside[outside.count - 22 + 19] = 0x7F
        #expect(throws: InputError.self) { try ZipReader(bytes: outside) }
    }

    @Test func neverTrapsOnTruncationsOrByteFlips() throws {
        var builder = ZipArchiveBuilder()
        builder.add("App.dSYM/Contents/Resources/DWARF/App", dwarf)
        builder.add("b", Array("tiny".utf8), deflate: false)
        let archive = builder.build()
        var readable = 0
        for cut in stride(from: 0, through: archive.count, by: 7) {
            if let reader = try? ZipReader(bytes: Array(archive.prefix(cut))) {
                for entry in reader.entries { if (try? reader.contents(of: entry)) != nil { readable += 1 } }
            }
        }
        // Only the whole archive has a findable end record.
        #expect(readable == 0 || readable == 2)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            var damaged = archive
            for _ in 0..<3 { damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let reader = try? ZipReader(bytes: damaged) {
                for entry in reader.entries { _ = try? reader.contents(of: entry) }
            }
        }
        #expect(throws: InputError.self) { try ZipReader(bytes: Array("PK\u{3}\u{4} not really".utf8)) }
        #expect(ZipReader.looksLikeZip(archive))
        #expect(!ZipReader.looksLikeZip(Array("hello".utf8)))
    }
}
