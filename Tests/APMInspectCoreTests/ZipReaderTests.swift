import CZlib
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

@Suite struct ZipReaderTests {
    private let dwarf = Array((0..<3000).map { "DW_TAG_subprogram \($0)\n" }.joined().utf8)

    @Test func readsStoredAndDeflatedEntriesInDirectoryOrder() throws {
        var builder = ZipArchiveBuilder()
        builder.add("App.app.dSYM/Contents/Info.plist", Array("<plist/>".utf8), deflate: false)
        builder.add("App.app.dSYM/Contents/Resources/DWARF/App", dwarf)
        builder.comment = Array("made by a test".utf8)
        let bytes = builder.build()
        let reader = try ZipReader(bytes: bytes)
        #expect(
            reader.entries.map(\.name) == [
                "App.app.dSYM/Contents/Info.plist", "App.app.dSYM/Contents/Resources/DWARF/App",
            ]
        )
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
        let safe = names.map {
            ZipEntry(
                rawName: Array($0.utf8),
                index: 0,
                method: 0,
                flags: 0,
                crc32: 0,
                compressedSize: 0,
                uncompressedSize: 0,
                localHeaderOffset: 0
            ).isSafePath
        }
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
            #expect(error.code == .unreadable)
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
        var generator = SeededGenerator(seed: 0x5EED_0016)
        for _ in 0..<400 {
            var damaged = archive
            for _ in 0..<3 {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255,
                    using: &generator
                )
            }
            if let reader = try? ZipReader(bytes: damaged) {
                for entry in reader.entries { _ = try? reader.contents(of: entry) }
            }
        }
        #expect(throws: InputError.self) { try ZipReader(bytes: Array("PK\u{3}\u{4} not really".utf8)) }
        #expect(ZipReader.looksLikeZip(archive))
        #expect(!ZipReader.looksLikeZip(Array("hello".utf8)))
    }
}
