import Foundation

/// Assembles a small dyld shared cache from thin arm64(e) dylibs, laid out as Apple's cache builder lays one out:
/// a main file whose header has the real field offsets (mappings, the image and image-text tables, the subcache
/// array, the `.symbols` file's UUID), the images' `__TEXT` copied in at unslid addresses (one image's in a
/// subcache, `.01`, when asked), one shared `__LINKEDIT` holding every image's global symbols and a shared string
/// pool, each image's header rewritten to point there, and a `.symbols` file holding the local symbols in a
/// `dyld_cache_local_symbols_info` with 64-bit entries.
///
/// `legacy` builds the layout of caches before iOS 15: a header ending at 0x140, the old image table at 0x18
/// without the image-text table (UUIDs come from each image's LC_UUID), local symbols in the main file with 32-bit
/// entries keyed by file offset, no subcaches.
struct DyldCacheBuilder {
    struct Image {
        var bytes: [UInt8]
        var inSubCache = false
        /// Replaces the image's LC_UUID (copies of one fixture as distinct images).
        var uuid: [UInt8]?
        /// Synthetic local symbols added in `__text` (for measurements at scale).
        var extraLocals = 0
    }

    struct Built {
        var main: [UInt8]
        var subCache: [UInt8]?
        var symbols: [UInt8]?
        /// Each image's unslid address, in the order given.
        var addresses: [UInt64]

        /// Writes the files as `name`, `name.01`, `name.symbols` in `folder`; returns the main file's path.
        @discardableResult
        func write(to folder: String, name: String = "dyld_shared_cache_arm64e") throws -> String {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/" + name
            try Data(main).write(to: URL(fileURLWithPath: path))
            if let subCache { try Data(subCache).write(to: URL(fileURLWithPath: path + ".01")) }
            if let symbols { try Data(symbols).write(to: URL(fileURLWithPath: path + ".symbols")) }
            return path
        }
    }

    var images: [Image]
    var legacy = false

    static let base: UInt64 = 0x1_8000_0000
    static let subCacheBase: UInt64 = 0x1_9000_0000
    static let linkeditBase: UInt64 = 0x1_a000_0000
    static let mainUUID = [UInt8](repeating: 0xA1, count: 16)
    static let subCacheUUID = [UInt8](repeating: 0xB2, count: 16)
    static let symbolsUUID = [UInt8](repeating: 0xC3, count: 16)

    // MARK: - Reading a dylib

    struct Segment {
        var command: Int
        var name: String
        var vmaddr: UInt64
        var vmsize: UInt64
        var fileoff: UInt64
        var filesize: UInt64
        var sections: Int
    }

    struct Symbol {
        var name: [UInt8]
        var type: UInt8
        var section: UInt8
        var desc: UInt16
        var value: UInt64
    }

    struct Parsed {
        var segments: [Segment] = []
        var symtabCommand = 0
        var uuidCommand = 0
        var installName: [UInt8] = []
        var symbols: [Symbol] = []
        var text: Segment {
            segments.first { $0.name == "__TEXT" }
                ?? Segment(command: 0, name: "", vmaddr: 0, vmsize: 0, fileoff: 0, filesize: 0, sections: 0)
        }
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }
    }

    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) }
    }

    static func put32(_ value: UInt32, _ b: inout [UInt8], _ at: Int) {
        for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
    }

    static func put64(_ value: UInt64, _ b: inout [UInt8], _ at: Int) {
        for k in 0..<8 { b[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
    }

    static func parse(_ b: [UInt8]) -> Parsed {
        var parsed = Parsed()
        let count = Int(u32(b, 16))
        var cursor = 32
        var symtab: (Int, Int, Int, Int)?
        for _ in 0..<count {
            let command = u32(b, cursor)
            let size = Int(u32(b, cursor + 4))
            switch command {
            case 0x19:
                let name = String(decoding: b[(cursor + 8)..<(cursor + 24)].prefix { $0 != 0 }, as: UTF8.self)
                parsed.segments.append(
                    Segment(
                        command: cursor,
                        name: name,
                        vmaddr: u64(b, cursor + 24),
                        vmsize: u64(b, cursor + 32),
                        fileoff: u64(b, cursor + 40),
                        filesize: u64(b, cursor + 48),
                        sections: Int(u32(b, cursor + 64))
                    )
                )
            case 0x2:
                parsed.symtabCommand = cursor
                symtab = (
                    Int(u32(b, cursor + 8)), Int(u32(b, cursor + 12)), Int(u32(b, cursor + 16)),
                    Int(u32(b, cursor + 20))
                )
            case 0x1B:
                parsed.uuidCommand = cursor
            case 0xD:
                let at = cursor + Int(u32(b, cursor + 8))
                parsed.installName = Array(b[at..<(cursor + size)].prefix { $0 != 0 })
            default:
                break
            }
            cursor += size
        }
        if let (symoff, nsyms, stroff, _) = symtab {
            for index in 0..<nsyms {
                let at = symoff + index * 16
                let strx = Int(u32(b, at))
                parsed.symbols.append(
                    Symbol(
                        name: Array(b[(stroff + strx)...].prefix { $0 != 0 }),
                        type: b[at + 4],
                        section: b[at + 5],
                        desc: UInt16(b[at + 6]) | UInt16(b[at + 7]) << 8,
                        value: u64(b, at + 8)
                    )
                )
            }
        }
        return parsed
    }

    // MARK: - Building

    static func align(_ value: Int, _ to: Int = 0x4000) -> Int { (value + to - 1) / to * to }

    func build() -> Built {
        let headerSize = legacy ? 0x140 : 0x200
        let parsed = images.map { Self.parse($0.bytes) }
        // Where each image's __TEXT goes: its file (0 main, 1 subcache), file offset and address.
        var placed: [(file: Int, offset: Int, address: UInt64)] = []
        var mainEnd = 0x4000
        var subEnd = 0x4000
        for (index, image) in images.enumerated() {
            let size = Self.align(Int(parsed[index].text.filesize))
            if image.inSubCache && !legacy {
                placed.append((1, subEnd, Self.subCacheBase + UInt64(subEnd)))
                subEnd += size
            } else {
                placed.append((0, mainEnd, Self.base + UInt64(mainEnd)))
                mainEnd += size
            }
        }
        // The shared __LINKEDIT: globals of every image, then one string pool; locals go to the local symbols.
        var pool: [UInt8] = [0x20, 0]
        var globals: [UInt8] = []
        var globalRanges: [(start: Int, count: Int)] = []
        var locals: [[UInt8]] = []  // nlist bytes per image, names in `localPool`
        var localPool: [UInt8] = [0x20, 0]
        func nlist(_ strx: Int, _ symbol: Symbol, _ value: UInt64) -> [UInt8] {
            var entry = [UInt8](repeating: 0, count: 16)
            Self.put32(UInt32(strx), &entry, 0)
            entry[4] = symbol.type
            entry[5] = symbol.section
            entry[6] = UInt8(symbol.desc & 0xFF)
            entry[7] = UInt8(symbol.desc >> 8)
            Self.put64(value, &entry, 8)
            return entry
        }
        for (index, image) in images.enumerated() {
            let delta = placed[index].address &- parsed[index].text.vmaddr
            var start = globals.count / 16
            var count = 0
            var local: [UInt8] = []
            var symbols = parsed[index].symbols
            if image.extraLocals > 0, let text = symbols.first(where: { $0.section == 1 }) {
                for k in 0..<image.extraLocals {
                    symbols.append(
                        Symbol(
                            name: Array("_synthetic_\(index)_\(k)".utf8),
                            type: 0x0E,
                            section: 1,
                            desc: 0,
                            value: text.value + UInt64(k % 8) * 4
                        )
                    )
                }
            }
            for symbol in symbols {
                let isSection = symbol.type & 0x0E == 0x0E
                let value = isSection ? symbol.value &+ delta : symbol.value
                if symbol.type & 0x01 != 0 || !isSection {
                    globals += nlist(pool.count, symbol, value)
                    pool += symbol.name + [0]
                    count += 1
                } else {
                    local += nlist(localPool.count, symbol, value)
                    localPool += symbol.name + [0]
                }
            }
            if count == 0 { start = 0 }
            globalRanges.append((start, count))
            locals.append(local)
        }
        // Local symbols info: in the .symbols file, or (legacy) in the main file after __LINKEDIT.
        func localInfo(keys: [UInt64], wide: Bool) -> [UInt8] {
            let entrySize = wide ? 16 : 12
            let entriesOffset = 24
            let nlistOffset = entriesOffset + keys.count * entrySize
            let nlists = locals.flatMap { $0 }
            let stringsOffset = nlistOffset + nlists.count
            var info = [UInt8](repeating: 0, count: stringsOffset)
            Self.put32(UInt32(nlistOffset), &info, 0)
            Self.put32(UInt32(nlists.count / 16), &info, 4)
            Self.put32(UInt32(stringsOffset), &info, 8)
            Self.put32(UInt32(localPool.count), &info, 12)
            Self.put32(UInt32(entriesOffset), &info, 16)
            Self.put32(UInt32(keys.count), &info, 20)
            var next = 0
            for (index, key) in keys.enumerated() {
                let at = entriesOffset + index * entrySize
                if wide { Self.put64(key, &info, at) } else { Self.put32(UInt32(key), &info, at) }
                Self.put32(UInt32(next), &info, at + entrySize - 8)
                Self.put32(UInt32(locals[index].count / 16), &info, at + entrySize - 4)
                next += locals[index].count / 16
            }
            info.replaceSubrange(nlistOffset..<stringsOffset, with: nlists)
            return info + localPool
        }

        let linkeditOffset = mainEnd
        let globalsSize = globals.count
        let linkedit = globals + pool
        let linkeditSize = Self.align(linkedit.count)
        var legacyLocals: [UInt8] = []
        if legacy {
            legacyLocals = localInfo(keys: placed.map { UInt64($0.offset) }, wide: false)
        }
        let tablesOffset = linkeditOffset + linkeditSize + legacyLocals.count
        // The tables after __LINKEDIT (outside every mapping, as the image-text table is in real caches' headers
        // region): image infos, image text infos, paths, the subcache array.
        var tables: [UInt8] = []
        let imagesOffset = tablesOffset
        tables += [UInt8](repeating: 0, count: images.count * 32)
        let textOffset = tablesOffset + tables.count
        if !legacy { tables += [UInt8](repeating: 0, count: images.count * 32) }
        var pathOffsets: [Int] = []
        for parsed in parsed {
            pathOffsets.append(tablesOffset + tables.count)
            tables += parsed.installName + [0]
        }
        let hasSubCache = !legacy && images.contains { $0.inSubCache }
        let subArrayOffset = tablesOffset + tables.count
        if hasSubCache { tables += [UInt8](repeating: 0, count: 56) }

        var main = [UInt8](repeating: 0, count: tablesOffset)
        main += tables
        var sub = [UInt8](repeating: 0, count: subEnd)
        // Images: copied __TEXT with the header rewritten.
        for (index, image) in images.enumerated() {
            let p = parsed[index]
            let delta = placed[index].address &- p.text.vmaddr
            var text = Array(image.bytes[Int(p.text.fileoff)..<Int(p.text.fileoff + p.text.filesize)])
            for segment in p.segments {
                let at = segment.command
                if segment.name == "__LINKEDIT" {
                    Self.put64(Self.linkeditBase, &text, at + 24)
                    Self.put64(UInt64(linkeditSize), &text, at + 32)
                    Self.put64(UInt64(linkeditOffset), &text, at + 40)
                    Self.put64(UInt64(linkeditSize), &text, at + 48)
                } else {
                    Self.put64(segment.vmaddr &+ delta, &text, at + 24)
                    let isText = segment.name == "__TEXT"
                    Self.put64(isText ? UInt64(placed[index].offset) : 0, &text, at + 40)
                    if !isText { Self.put64(0, &text, at + 48) }
                }
                for s in 0..<segment.sections {
                    let sat = at + 72 + s * 80
                    Self.put64(Self.u64(text, sat + 32) &+ delta, &text, sat + 32)
                    let offset = Self.u32(text, sat + 48)
                    if offset != 0 { Self.put32(offset + UInt32(placed[index].offset), &text, sat + 48) }
                }
            }
            let range = globalRanges[index]
            Self.put32(UInt32(linkeditOffset + range.start * 16), &text, p.symtabCommand + 8)
            Self.put32(UInt32(range.count), &text, p.symtabCommand + 12)
            Self.put32(UInt32(linkeditOffset + globalsSize), &text, p.symtabCommand + 16)
            Self.put32(UInt32(pool.count), &text, p.symtabCommand + 20)
            if let uuid = image.uuid { text.replaceSubrange((p.uuidCommand + 8)..<(p.uuidCommand + 24), with: uuid) }
            if placed[index].file == 0 {
                main.replaceSubrange(placed[index].offset..<(placed[index].offset + text.count), with: text)
            } else {
                sub.replaceSubrange(placed[index].offset..<(placed[index].offset + text.count), with: text)
            }
            let uuid = image.uuid ?? Array(image.bytes[(p.uuidCommand + 8)..<(p.uuidCommand + 24)])
            // dyld_cache_image_info and dyld_cache_image_text_info.
            Self.put64(placed[index].address, &main, imagesOffset + index * 32)
            Self.put32(UInt32(pathOffsets[index]), &main, imagesOffset + index * 32 + 24)
            if !legacy {
                let at = textOffset + index * 32
                main.replaceSubrange(at..<(at + 16), with: uuid)
                Self.put64(placed[index].address, &main, at + 16)
                Self.put32(UInt32(p.text.vmsize), &main, at + 24)
                Self.put32(UInt32(pathOffsets[index]), &main, at + 28)
            }
        }
        main.replaceSubrange(linkeditOffset..<(linkeditOffset + linkedit.count), with: linkedit)
        if legacy {
            main.replaceSubrange((linkeditOffset + linkeditSize)..<tablesOffset, with: legacyLocals)
        }

        // The main header and its mappings (after the header: mappingOffset is the header's length).
        let magic = Array("dyld_v1  arm64e".utf8) + [0]
        main.replaceSubrange(0..<16, with: magic)
        Self.put32(UInt32(headerSize), &main, 0x10)
        Self.put32(2, &main, 0x14)
        let mappings: [(UInt64, UInt64, UInt64)] = [
            (Self.base, UInt64(mainEnd), 0), (Self.linkeditBase, UInt64(linkeditSize), UInt64(linkeditOffset)),
        ]
        for (index, mapping) in mappings.enumerated() {
            Self.put64(mapping.0, &main, headerSize + index * 32)
            Self.put64(mapping.1, &main, headerSize + index * 32 + 8)
            Self.put64(mapping.2, &main, headerSize + index * 32 + 16)
        }
        main.replaceSubrange(0x58..<0x68, with: Self.mainUUID)
        if legacy {
            Self.put32(UInt32(imagesOffset), &main, 0x18)
            Self.put32(UInt32(images.count), &main, 0x1C)
            Self.put64(UInt64(linkeditOffset + linkeditSize), &main, 0x48)
            Self.put64(UInt64(legacyLocals.count), &main, 0x50)
            return Built(main: main, subCache: nil, symbols: nil, addresses: placed.map(\.address))
        }
        Self.put64(UInt64(textOffset), &main, 0x88)
        Self.put64(UInt64(images.count), &main, 0x90)
        Self.put64(Self.base, &main, 0xE0)
        Self.put32(UInt32(imagesOffset), &main, 0x1C0)
        Self.put32(UInt32(images.count), &main, 0x1C4)
        main.replaceSubrange(0x190..<0x1A0, with: Self.symbolsUUID)
        var subCache: [UInt8]?
        if hasSubCache {
            Self.put32(UInt32(subArrayOffset), &main, 0x188)
            Self.put32(1, &main, 0x18C)
            main.replaceSubrange(subArrayOffset..<(subArrayOffset + 16), with: Self.subCacheUUID)
            Self.put64(Self.subCacheBase - Self.base, &main, subArrayOffset + 16)
            main.replaceSubrange((subArrayOffset + 24)..<(subArrayOffset + 27), with: Array(".01".utf8))
            sub.replaceSubrange(0..<16, with: magic)
            Self.put32(UInt32(headerSize), &sub, 0x10)
            Self.put32(1, &sub, 0x14)
            sub.replaceSubrange(0x58..<0x68, with: Self.subCacheUUID)
            Self.put64(Self.subCacheBase, &sub, headerSize)
            Self.put64(UInt64(subEnd), &sub, headerSize + 8)
            subCache = sub
        }
        // The .symbols file: a header without mappings, then the local symbols info.
        let info = localInfo(keys: placed.map { $0.address - Self.base }, wide: true)
        var symbols = [UInt8](repeating: 0, count: headerSize)
        symbols.replaceSubrange(0..<16, with: magic)
        Self.put32(UInt32(headerSize), &symbols, 0x10)
        symbols.replaceSubrange(0x58..<0x68, with: Self.symbolsUUID)
        Self.put64(UInt64(headerSize), &symbols, 0x48)
        Self.put64(UInt64(info.count), &symbols, 0x50)
        symbols += info
        return Built(main: main, subCache: subCache, symbols: symbols, addresses: placed.map(\.address))
    }
}
