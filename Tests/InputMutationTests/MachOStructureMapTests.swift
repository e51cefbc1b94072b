import InputMutation
import Testing

/// The Mach-O map against the committed symbolication fixtures.
///
/// Expected offsets and values are literals read once from `llvm-objdump --macho --private-headers
/// --universal-headers` (load commands, LC_SYMTAB, segments and sections, fat_arch) and `llvm-dwarfdump
/// --debug-info --debug-line` (unit offsets, lengths, versions, `prologue_length`) of the fixtures, LLVM 14 and
/// the toolchain's LLVM 21, checked by hand. The map is a separate reader; these say where it must land.
@Suite("StructureMap: Mach-O")
struct MachOStructureMapTests {
    static let x86 = "Demo-x86_64"
    static let arm64 = "Demo-arm64"
    static let fat = "Demo-fat"
    static let arm64DSYM = "Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64"

    private func value(_ bytes: [UInt8], _ range: Range<Int>, bigEndian: Bool = false) -> UInt64 {
        let ordered = bigEndian ? Array(bytes[range]) : Array(bytes[range].reversed())
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The value of the length field the map found at `offset`, nil when it found none there.
    private func length(_ map: StructureMap, _ bytes: [UInt8], at offset: Int, width: Int = 4) -> UInt64? {
        guard let span = map.spans.first(where: { $0.range.lowerBound == offset }),
            span.role == .lengthField(width: width, bigEndian: false), span.range.count == width
        else { return nil }
        return value(bytes, span.range)
    }

    private func hasHeaderBytes(_ map: StructureMap, _ range: Range<Int>) -> Bool {
        map.spans.contains { $0.range == range && $0.role == .headerBytes }
    }

    @Test("thin x86_64: each load command's cmd and cmdsize, the segment and section fields, LC_UUID and LC_SYMTAB")
    func thinExecutable() throws {
        let bytes = try Fixtures.machO(Self.x86)
        let input = MutationInput(bytes: bytes)
        #expect(input.family == .machO)
        let map = input.map
        #expect(length(map, bytes, at: 16) == 12)  // ncmds
        #expect(length(map, bytes, at: 20) == 592)  // sizeofcmds
        // cmd and cmdsize of the 12 load commands, in llvm-objdump's order.
        let commands: [(UInt64, UInt64)] = [
            (0x19, 72), (0x19, 152), (0x19, 72), (0x8000_0022, 48), (0x2, 24), (0xB, 80), (0xE, 32), (0x1B, 24),
            (0x32, 32), (0x8000_0028, 24), (0x26, 16), (0x29, 16),
        ]
        var offset = 32
        var starts: [Int] = []
        for (command, size) in commands {
            starts.append(offset)
            #expect(hasHeaderBytes(map, offset..<(offset + 4)), "cmd at \(offset)")
            #expect(value(bytes, offset..<(offset + 4)) == command)
            #expect(length(map, bytes, at: offset + 4) == size, "cmdsize at \(offset + 4)")
            #expect(map.boundaries.contains(offset), "a boundary at the command at \(offset)")
            offset += Int(size)
        }
        #expect(map.boundaries.contains(32 + 592))
        // __TEXT (command 1): vmaddr, vmsize, fileoff, filesize, nsects; its __text section's addr, size, offset.
        let text = starts[1]
        #expect(length(map, bytes, at: text + 24, width: 8) == 0x1_0000_0000)
        #expect(length(map, bytes, at: text + 32, width: 8) == 0x1000)
        #expect(length(map, bytes, at: text + 40, width: 8) == 0)
        #expect(length(map, bytes, at: text + 48, width: 8) == 4096)
        #expect(length(map, bytes, at: text + 64) == 1)
        #expect(length(map, bytes, at: text + 72 + 32, width: 8) == 0x1_0000_0290)
        #expect(length(map, bytes, at: text + 72 + 40, width: 8) == 0x2AF)
        #expect(length(map, bytes, at: text + 72 + 48) == 656)
        // reloff and nreloc.
        #expect(length(map, bytes, at: text + 72 + 56) == 0 && length(map, bytes, at: text + 72 + 60) == 0)
        #expect(hasHeaderBytes(map, (text + 72 + 64)..<(text + 72 + 65)))  // the section type
        // LC_UUID (command 7): 4C4C448E-5555-3144-A15D-64C4E4FA849B.
        let uuid = starts[7] + 8
        #expect(hasHeaderBytes(map, uuid..<(uuid + 16)))
        #expect(
            Array(bytes[uuid..<(uuid + 16)]) == [
                0x4C, 0x4C, 0x44, 0x8E, 0x55, 0x55, 0x31, 0x44, 0xA1, 0x5D, 0x64, 0xC4, 0xE4, 0xFA, 0x84, 0x9B,
            ]
        )
        // LC_SYMTAB (command 4): symoff 4464, nsyms 49, stroff 5248, strsize 800; then the first nlist entries.
        let symtab = starts[4]
        #expect(length(map, bytes, at: symtab + 8) == 4464)
        #expect(length(map, bytes, at: symtab + 12) == 49)
        #expect(length(map, bytes, at: symtab + 16) == 5248)
        #expect(length(map, bytes, at: symtab + 20) == 800)
        #expect(map.boundaries.contains(4464) && map.boundaries.contains(5248))
        for entry in 0..<4 {
            let at = 4464 + 16 * entry
            #expect((length(map, bytes, at: at) ?? .max) < 800, "n_strx of symbol \(entry) inside the string table")
            #expect(hasHeaderBytes(map, (at + 4)..<(at + 5)) && hasHeaderBytes(map, (at + 5)..<(at + 6)))
            #expect(length(map, bytes, at: at + 8, width: 8) != nil, "n_value of symbol \(entry)")
        }
        #expect(map.spans.allSatisfy { $0.range.upperBound <= bytes.count })
    }

    @Test("dSYM: the unit headers of __debug_info and __debug_line, and the start of __debug_abbrev")
    func dwarfUnitHeaders() throws {
        let bytes = try Fixtures.machO(Self.arm64DSYM)
        let map = MutationInput(bytes: bytes).map
        // __debug_info at file offset 9264: (unit offset, unit_length, version).
        let info = 9264
        let units: [(Int, UInt64, UInt64)] = [(0x0, 0xF6, 5), (0xFA, 0x11B, 4), (0x219, 0x94, 5), (0x2B1, 0x214, 4)]
        for (offset, unitLength, version) in units {
            let at = info + offset
            #expect(length(map, bytes, at: at) == unitLength, "unit_length at \(at)")
            #expect(hasHeaderBytes(map, (at + 4)..<(at + 6)) && value(bytes, (at + 4)..<(at + 6)) == version)
            // DWARF 5: unit_type, address_size, debug_abbrev_offset; DWARF 4: debug_abbrev_offset, address_size.
            let abbrev = version == 5 ? at + 8 : at + 6
            let addressSize = version == 5 ? at + 7 : at + 10
            #expect(length(map, bytes, at: abbrev) == 0, "abbrev offset of the unit at \(at)")
            #expect(length(map, bytes, at: addressSize, width: 1) == 8, "address size of the unit at \(at)")
            #expect(map.boundaries.contains(at))
        }
        #expect(map.boundaries.contains(info + 0x4C9))
        // __debug_line at 8192: (table offset, unit_length, version, header_length).
        let line = 8192
        let tables: [(Int, UInt64, UInt64, UInt64)] = [
            (0x0, 0xFF, 5, 0x50), (0x103, 0x96, 4, 0x22), (0x19D, 0xB7, 5, 0x50), (0x258, 0xBC, 4, 0x26),
        ]
        for (offset, unitLength, version, headerLength) in tables {
            let at = line + offset
            #expect(length(map, bytes, at: at) == unitLength, "unit_length at \(at)")
            #expect(value(bytes, (at + 4)..<(at + 6)) == version)
            let field = version == 5 ? at + 8 : at + 6
            #expect(length(map, bytes, at: field) == headerLength, "header_length at \(field)")
            #expect(map.boundaries.contains(field + 4 + Int(headerLength)), "where the program starts")
        }
        #expect(hasHeaderBytes(map, 10897..<(10897 + 16)))
    }

    @Test("fat: nfat_arch and each fat_arch, then each slice mapped as the thin file it is")
    func fatFile() throws {
        let bytes = try Fixtures.machO(Self.fat)
        let map = MutationInput(bytes: bytes).map
        #expect(MutationInput(bytes: bytes).family == .machO)
        let big = StructureMap.Role.lengthField(width: 4, bigEndian: true)
        func bigLength(_ offset: Int) -> UInt64? {
            map.spans.first { $0.range == offset..<(offset + 4) && $0.role == big }.map {
                value(bytes, $0.range, bigEndian: true)
            }
        }
        #expect(bigLength(4) == 2)
        // fat_arch[0] x86_64 at 4096, 6048 bytes, 2^12; fat_arch[1] arm64 at 16384, 34784 bytes, 2^14.
        #expect(hasHeaderBytes(map, 8..<12) && hasHeaderBytes(map, 28..<32))
        #expect([bigLength(16), bigLength(20), bigLength(24)] == [4096, 6048, 12])
        #expect([bigLength(36), bigLength(40), bigLength(44)] == [16384, 34784, 14])
        // Each slice maps exactly as the thin file does, moved to where it lies.
        for (name, start) in [(Self.x86, 4096), (Self.arm64, 16384)] {
            let thin = try Fixtures.machO(name)
            #expect(Array(bytes[start..<(start + thin.count)]) == thin)
            let thinMap = MutationInput(bytes: thin).map
            #expect(thinMap.spans.count > 50)
            let moved = Set(thinMap.spans.map { "\($0.range.lowerBound + start) \($0.range.count) \($0.role)" })
            let found = Set(map.spans.map { "\($0.range.lowerBound) \($0.range.count) \($0.role)" })
            #expect(moved.isSubset(of: found), "\(name) at \(start)")
            #expect(Set(thinMap.boundaries.map { $0 + start }).isSubset(of: Set(map.boundaries)), "\(name)")
        }
    }

    @Test("a 32-bit big-endian Mach-O: the same fields, read and marked big-endian")
    func bigEndian32() {
        let bytes = Self.synthetic32BigEndian()
        let map = MutationInput(bytes: bytes).map
        #expect(map.family == .machO)
        let big = StructureMap.Role.lengthField(width: 4, bigEndian: true)
        func bigLength(_ offset: Int) -> UInt64? {
            map.spans.first { $0.range == offset..<(offset + 4) && $0.role == big }.map {
                value(bytes, $0.range, bigEndian: true)
            }
        }
        #expect(bigLength(16) == 3 && bigLength(20) == 172)
        #expect(bigLength(32) == 124 && bigLength(52) == 0x1000 && bigLength(64) == 0x200 && bigLength(76) == 1)
        #expect(bigLength(116) == 0x1100 && bigLength(120) == 0x20 && bigLength(124) == 0x100)
        #expect(hasHeaderBytes(map, 160..<176))
        #expect([bigLength(184), bigLength(188), bigLength(192), bigLength(196)] == [0x180, 1, 0x190, 8])
        #expect(bigLength(0x180) == 1 && bigLength(0x188) == 0x1100)
        #expect(map.boundaries.contains(200) && map.boundaries.contains(0x180) && map.boundaries.contains(0x198))
        #expect(!map.spans.contains { $0.role == .lengthField(width: 4, bigEndian: false) })
    }

    /// A PowerPC executable: LC_SEGMENT with one section, LC_UUID, LC_SYMTAB with one symbol; 512 bytes.
    static func synthetic32BigEndian() -> [UInt8] {
        func be(_ values: UInt32...) -> [UInt8] {
            values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) } }
        }
        func name(_ text: String) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0, count: 16 - text.utf8.count) }
        var bytes = be(0xFEED_FACE, 18, 0, 2, 3, 172, 0)
        bytes += be(0x1, 124) + name("__TEXT") + be(0x1000, 0x1000, 0, 0x200, 7, 5, 1, 0)
        bytes += name("__text") + name("__TEXT") + be(0x1100, 0x20, 0x100, 2, 0, 0, 0x8000_0400, 0, 0)
        bytes += be(0x1B, 24) + (1...16).map { UInt8($0) }
        bytes += be(0x2, 24, 0x180, 1, 0x190, 8)
        bytes += [UInt8](repeating: 0, count: 0x180 - bytes.count)
        bytes += be(1) + [0x0F, 1, 0, 0] + be(0x1100)
        bytes += [UInt8](repeating: 0, count: 0x190 - bytes.count) + Array("\0_main\0\0".utf8)
        bytes += [UInt8](repeating: 0, count: 0x200 - bytes.count)
        return bytes
    }

    @Test("Mach-O magics in both byte orders and fat headers are Mach-O; a Java class file is not")
    func recognition() {
        for magic: [UInt8] in [
            [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE],
            [0xCF, 0xFA, 0xED, 0xFE], [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2], [0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 1],
        ] {
            #expect(InputFamily.sniff(magic + [UInt8](repeating: 0, count: 40)) == .machO, "\(magic)")
        }
        // Java 8 (major version 52 where nfat_arch is), and a fat header that lists no architecture.
        #expect(InputFamily.sniff([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52] + [UInt8](repeating: 0, count: 40)) == .binary)
        #expect(InputFamily.sniff([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 40)) == .binary)
        #expect(InputFamily.sniff([0xCF, 0xFA, 0xED]) != .machO)
    }

    /// The map's invariants: spans inside the input and non-empty, boundaries inside, sorted and unique.
    private func expectSane(_ map: StructureMap, count: Int, _ comment: Comment) {
        #expect(map.spans.allSatisfy { $0.range.lowerBound >= 0 && $0.range.upperBound <= count }, comment)
        #expect(map.boundaries.allSatisfy { $0 > 0 && $0 < count }, comment)
        #expect(zip(map.boundaries, map.boundaries.dropFirst()).allSatisfy { $0 < $1 }, comment)
    }

    @Test("every truncation of the thin binary and the dSYM, and the fat file's around each boundary, maps")
    func truncations() throws {
        for name in [Self.x86, Self.arm64DSYM, Self.fat] {
            let bytes = try Fixtures.machO(name)
            let full = MutationInput(bytes: bytes).map
            // Every cut of the two small files; for the fat one, each boundary ± 2 and every 61st byte.
            var cuts = Set(name == Self.fat ? Array(stride(from: 0, to: bytes.count, by: 61)) : Array(0...bytes.count))
            for boundary in full.boundaries { for delta in -2...2 { cuts.insert(boundary + delta) } }
            cuts.insert(bytes.count)
            var spans = 0
            for cut in cuts.sorted() where cut >= 0 && cut <= bytes.count {
                let map = StructureMap.build(for: Array(bytes[0..<cut]), family: .machO)
                expectSane(map, count: cut, "\(name) cut at \(cut)")
                spans = max(spans, map.spans.count)
            }
            #expect(spans == full.spans.count, "the longest cut maps as much as the whole file")
        }
    }

    @Test("seeded damage: words set to zero, all ones, the file size or small counts, the map never traps")
    func seededDamage() throws {
        for name in [Self.x86, Self.arm64DSYM, Self.fat] {
            let original = try Fixtures.machO(name)
            let structured = MutationInput(bytes: original).map.spans.map(\.range.lowerBound)
            var rng = SplitMix64(seed: 0x4D61_6368)
            for round in 0..<400 {
                var bytes = original
                for _ in 0..<(1 + rng.below(6)) {
                    // Mostly on a mapped field, where a count or offset is read; sometimes anywhere.
                    let at = rng.chance(80) ? (rng.pick(structured) ?? 0) : rng.below(bytes.count - 8)
                    let values: [UInt64] = [
                        0, .max, UInt64(bytes.count), UInt64(rng.below(64)), 0x8000_0000, 0xFFFF_FFFF,
                    ]
                    var value = rng.pick(values) ?? 0
                    for k in 0..<min(8, bytes.count - at) {
                        bytes[at + k] = UInt8(truncatingIfNeeded: value)
                        value >>= 8
                    }
                }
                expectSane(StructureMap.build(for: bytes, family: .machO), count: bytes.count, "\(name) #\(round)")
            }
        }
    }

    @Test("the length-field and header-bytes mutators change only bytes inside a span of their role")
    func mutationsStayInSpans() throws {
        let engine = MutationEngine()
        for name in [Self.x86, Self.arm64DSYM, Self.fat] {
            let input = MutationInput(bytes: try Fixtures.machO(name))
            let kinds = engine.applicable(to: input)
            #expect(kinds.contains(.lengthField) && kinds.contains(.headerBytes) && kinds.contains(.truncateAtBoundary))
            #expect(!kinds.contains(.jsonReplaceValue) && !kinds.contains(.octalField))
            for kind in [MutatorKind.lengthField, .headerBytes] {
                let spans = input.map.spans.filter { span in
                    if case .lengthField = span.role { return kind == .lengthField }
                    return span.role == .headerBytes && kind == .headerBytes
                }
                var covered = Set<Int>()
                for span in spans { covered.formUnion(span.range) }
                var applied = 0
                for seed in 0..<300 {
                    var rng = SplitMix64(seed: UInt64(seed))
                    guard let (bytes, _) = engine.apply(kind, to: input, rng: &rng) else { continue }
                    applied += 1
                    #expect(bytes.count == input.bytes.count)
                    let changed = bytes.indices.filter { bytes[$0] != input.bytes[$0] }
                    #expect(!changed.isEmpty)
                    #expect(changed.allSatisfy(covered.contains), "\(name) \(kind.rawValue) seed \(seed): \(changed)")
                }
                #expect(applied > 250, "\(name) \(kind.rawValue)")
            }
        }
    }
}
