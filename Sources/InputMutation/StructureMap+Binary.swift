extension StructureMap {
    /// The most records, blocks or pages walked: bounds the map of a huge capture or database.
    static let maxRecords = 20_000

    /// Global header, then per record its timestamp and its captured and original lengths.
    mutating func addPcap(_ bytes: [UInt8]) {
        guard bytes.count >= 24 else { return }
        let bigEndian = bytes[0] == 0xA1
        add(0..<4, .headerBytes)
        add(4..<8, .headerBytes)
        add(16..<20, .lengthField(width: 4, bigEndian: bigEndian))
        add(20..<24, .headerBytes)
        boundary(24)
        var offset = 24
        var records = 0
        while offset + 16 <= bytes.count, records < Self.maxRecords {
            records += 1
            boundary(offset)
            add(offset..<(offset + 8), .headerBytes)
            add((offset + 8)..<(offset + 12), .lengthField(width: 4, bigEndian: bigEndian))
            add((offset + 12)..<(offset + 16), .lengthField(width: 4, bigEndian: bigEndian))
            boundary(offset + 16)
            guard let length = ByteFields.read(bytes, at: offset + 8, width: 4, bigEndian: bigEndian),
                length <= UInt64(bytes.count - offset - 16)
            else { break }
            addPacketHeaders(bytes, offset + 16, Int(length))
            offset += 16 + Int(length)
        }
    }

    /// Blocks: type, both copies of the total length, and the lengths inside section headers and packet blocks.
    mutating func addPcapng(_ bytes: [UInt8]) {
        guard bytes.count >= 12 else { return }
        let bigEndian = bytes[8] == 0x1A
        var offset = 0
        var blocks = 0
        while offset + 12 <= bytes.count, blocks < Self.maxRecords {
            blocks += 1
            boundary(offset)
            add(offset..<(offset + 4), .headerBytes)
            add((offset + 4)..<(offset + 8), .lengthField(width: 4, bigEndian: bigEndian))
            guard let type = ByteFields.read(bytes, at: offset, width: 4, bigEndian: bigEndian),
                let length = ByteFields.read(bytes, at: offset + 4, width: 4, bigEndian: bigEndian),
                length >= 12, length <= UInt64(bytes.count - offset)
            else { break }
            let end = offset + Int(length)
            add((end - 4)..<end, .lengthField(width: 4, bigEndian: bigEndian))
            switch type {
            case 0x0A0D_0D0A where end >= offset + 24:
                add((offset + 8)..<(offset + 12), .headerBytes)
                add((offset + 16)..<(offset + 24), .lengthField(width: 8, bigEndian: bigEndian))
            case 0x0000_0001 where end >= offset + 16:
                add((offset + 8)..<(offset + 10), .headerBytes)
                add((offset + 12)..<(offset + 16), .lengthField(width: 4, bigEndian: bigEndian))
            case 0x0000_0006 where end >= offset + 28:
                add((offset + 8)..<(offset + 12), .headerBytes)
                add((offset + 20)..<(offset + 24), .lengthField(width: 4, bigEndian: bigEndian))
                add((offset + 24)..<(offset + 28), .lengthField(width: 4, bigEndian: bigEndian))
                if let captured = ByteFields.read(bytes, at: offset + 20, width: 4, bigEndian: bigEndian),
                    captured <= UInt64(end - offset - 28)
                {
                    addPacketHeaders(bytes, offset + 28, Int(captured))
                }
            default:
                break
            }
            boundary(end)
            offset = end
        }
    }

    /// IPv4 total length and UDP length where a packet looks like Ethernet + IPv4, the usual capture.
    private mutating func addPacketHeaders(_ bytes: [UInt8], _ start: Int, _ length: Int) {
        guard length >= 34, start + 34 <= bytes.count else { return }
        if bytes[start + 12] == 0x08, bytes[start + 13] == 0x00, bytes[start + 14] >> 4 == 4 {
            add((start + 14)..<(start + 15), .headerBytes)
            add((start + 16)..<(start + 18), .lengthField(width: 2, bigEndian: true))
            add((start + 23)..<(start + 24), .headerBytes)
            boundary(start + 14)
            boundary(start + 34)
        }
    }

    /// The database header, each b-tree page header and its cell pointers, and the SQL of schema rows.
    mutating func addSQLite(_ bytes: [UInt8]) {
        guard bytes.count >= 100 else { return }
        add(16..<18, .lengthField(width: 2, bigEndian: true))
        add(18..<24, .headerBytes)
        add(28..<32, .lengthField(width: 4, bigEndian: true))
        add(32..<40, .lengthField(width: 4, bigEndian: true))
        add(44..<60, .headerBytes)
        boundary(100)
        var pageSize = Int(ByteFields.read(bytes, at: 16, width: 2, bigEndian: true) ?? 4096)
        if pageSize == 1 { pageSize = 65536 }
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return }
        var page = 0
        while page * pageSize < bytes.count, page < Self.maxRecords {
            let pageStart = page * pageSize
            let header = page == 0 ? 100 : pageStart
            boundary(pageStart)
            page += 1
            guard header + 8 <= bytes.count, [2, 5, 10, 13].contains(bytes[header]) else { continue }
            add(header..<(header + 1), .headerBytes)
            add((header + 1)..<(header + 3), .lengthField(width: 2, bigEndian: true))
            add((header + 3)..<(header + 5), .lengthField(width: 2, bigEndian: true))
            add((header + 5)..<(header + 7), .lengthField(width: 2, bigEndian: true))
            let interior = bytes[header] == 2 || bytes[header] == 5
            if interior { add((header + 8)..<(header + 12), .lengthField(width: 4, bigEndian: true)) }
            let cells = Int(ByteFields.read(bytes, at: header + 3, width: 2, bigEndian: true) ?? 0)
            let pointers = header + (interior ? 12 : 8)
            for cell in 0..<min(cells, 64) {
                add((pointers + 2 * cell)..<(pointers + 2 * cell + 2), .lengthField(width: 2, bigEndian: true))
            }
        }
        addSchemaText(bytes)
    }

    /// `CREATE …` statements: SQLite keeps the schema as text in the rows of `sqlite_schema`.
    private mutating func addSchemaText(_ bytes: [UInt8]) {
        let needle = Array("CREATE ".utf8)
        do {
            let b = bytes
            var i = 0
            var found = 0
            while i + needle.count <= b.count, found < 1000 {
                if b[i] == needle[0], Array(b[i..<(i + needle.count)]) == needle {
                    var end = i
                    while end < b.count, b[end] >= 0x20, b[end] < 0x7F { end += 1 }
                    add(i..<end, .schemaText)
                    found += 1
                    i = end
                } else {
                    i += 1
                }
            }
        }
    }

    /// Per entry: name, mode, size, checksum, type and magic; entries are walked by their sizes.
    mutating func addTar(_ bytes: [UInt8]) {
        var offset = 0
        var entries = 0
        while offset + 512 <= bytes.count, entries < Self.maxRecords {
            entries += 1
            if bytes[offset..<(offset + 512)].allSatisfy({ $0 == 0 }) {
                boundary(offset)
                break
            }
            boundary(offset)
            boundary(offset + 512)
            add(offset..<(offset + 100), .line)
            add((offset + 100)..<(offset + 108), .octalField)
            add((offset + 124)..<(offset + 136), .octalField)
            add((offset + 136)..<(offset + 148), .octalField)
            add((offset + 148)..<(offset + 156), .octalField)
            add((offset + 156)..<(offset + 157), .headerBytes)
            add((offset + 157)..<(offset + 257), .line)
            add((offset + 257)..<(offset + 265), .headerBytes)
            add((offset + 345)..<(offset + 500), .line)
            guard let size = ByteFields.octal(bytes, (offset + 124)..<(offset + 136)),
                size <= UInt64(bytes.count)
            else { break }
            let padded = (Int(size) + 511) / 512 * 512
            offset += 512 + padded
        }
    }

    /// Header (flags, time, extra length), trailer (CRC and ISIZE).
    mutating func addGzip(_ bytes: [UInt8]) {
        guard bytes.count >= 18 else { return }
        add(2..<4, .headerBytes)
        add(4..<8, .headerBytes)
        add(8..<10, .headerBytes)
        if bytes[3] & 0x04 != 0 { add(10..<12, .lengthField(width: 2, bigEndian: false)) }
        boundary(10)
        let count = bytes.count
        add((count - 8)..<(count - 4), .headerBytes)
        add((count - 4)..<count, .lengthField(width: 4, bigEndian: false))
        boundary(count - 8)
        boundary(count - 4)
    }

    /// Header and Adler-32 trailer.
    mutating func addZlib(_ bytes: [UInt8]) {
        guard bytes.count >= 6 else { return }
        add(0..<2, .headerBytes)
        add((bytes.count - 4)..<bytes.count, .headerBytes)
        boundary(2)
        boundary(bytes.count - 4)
    }
}
