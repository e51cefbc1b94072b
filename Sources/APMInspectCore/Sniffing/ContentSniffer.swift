import ByteAccess

/// Identifies a file's format from its content, never from its name.
package enum ContentSniffer {
    /// The format of `bytes` (only the first few kilobytes are looked at).
    package static func format(of bytes: [UInt8]) -> ContentFormat {
        bytes.withBorrowedBytes { format(of: $0) }
    }

    /// The format of the bytes in `buffer`.
    package static func format(of buffer: BorrowedBytes) -> ContentFormat {
        if buffer.isEmpty { return .empty }
        if let magic = magicFormat(buffer) { return magic }
        var i = 0
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { i = 3 }
        while let byte = buffer[i], isSpace(byte) { i += 1 }
        guard let lead = buffer[i] else { return .empty }
        let prefix = buffer.slice(i..<(i + 8192))
        // An .ips header decides even when the body after it is damaged: the parser then says what is wrong.
        if lead == UInt8(ascii: "{"), firstLineIsIPSHeader(prefix) { return .ips }
        // A crash report's marker lets a few NUL bytes through (a path or name from a damaged report, written out
        // as read): one NUL makes other text binary. The ten marker searches are the sniffer's main cost, and most
        // files need none of them (no NUL, and JSON or XML, which never is crash text): they are made only then.
        let controls = controlBytes(prefix)
        var crashMarked: Bool?
        if controls.sawNUL {
            let marked = containsAny(prefix, crashTextMarkers)
            guard marked else { return .binary }
            crashMarked = marked
        }
        if controls.count * 100 > prefix.count { return .binary }
        switch lead {
        case UInt8(ascii: "{"):
            return firstLineIsIPSHeader(prefix) ? .ips : .json
        case UInt8(ascii: "["):
            return .json
        case UInt8(ascii: "<"):
            return .xml
        case UInt8(ascii: "\""):
            return .json
        default:
            break
        }
        if crashMarked ?? containsAny(prefix, crashTextMarkers) { return .crashText }
        // A header cut at the front (`timestamp":"…","bug_type":"298"}`) followed by a body.
        if contains(prefix, "\"bug_type\"") { return .ips }
        return .text
    }

    private static let crashTextMarkers = [
        "Incident Identifier:", "Exception Type:", "Crashed Thread:", "Translated Report (Full Report Below)",
        "Hardware Model:", "Termination Reason:", "Exception Codes:", "Binary Images:", "Triggered by Thread:",
        "Last Exception Backtrace:",
    ]

    /// The format the first bytes' magic number names (SQLite, gzip, zlib, pcap, pcapng, tar), or nil: what
    /// ``format(of:)-([UInt8])`` says of such bytes, at the cost of a few comparisons.
    package static func magicFormat(of bytes: [UInt8]) -> ContentFormat? {
        bytes.withBorrowedBytes { magicFormat($0) }
    }

    private static func magicFormat(_ b: BorrowedBytes) -> ContentFormat? {
        func starts(_ bytes: [UInt8]) -> Bool {
            guard b.count >= bytes.count else { return false }
            for (k, byte) in bytes.enumerated() where b[k] != byte { return false }
            return true
        }
        if starts(Array("SQLite format 3".utf8) + [0]) { return .sqlite }
        if starts([0x1F, 0x8B]) { return .gzip }
        if starts([0xD4, 0xC3, 0xB2, 0xA1]) || starts([0xA1, 0xB2, 0xC3, 0xD4]) || starts([0x4D, 0x3C, 0xB2, 0xA1])
            || starts([0xA1, 0xB2, 0x3C, 0x4D])
        {
            return .pcap
        }
        if starts([0x0A, 0x0D, 0x0D, 0x0A]) { return .pcapng }
        if b.count >= 2, b[0] == 0x78, let flags = b[1], [0x01, 0x5E, 0x9C, 0xDA].contains(flags) { return .zlib }
        if b.count >= 262, b[257] == UInt8(ascii: "u"), b[258] == UInt8(ascii: "s"), b[259] == UInt8(ascii: "t"),
            b[260] == UInt8(ascii: "a"), b[261] == UInt8(ascii: "r")
        {
            return .tar
        }
        return nil
    }

    private static func firstLineIsIPSHeader(_ b: BorrowedBytes) -> Bool {
        let line = b.slice(0..<(b.firstIndex(of: 0x0A) ?? b.count))
        return line.count > 2 && (contains(line, "\"bug_type\"") || contains(line, "\"os_version\""))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// The control bytes of `b` that text does not use (NUL included), and whether one of them is a NUL: text
    /// has at most one per hundred bytes, and a NUL only when a crash marker excuses it (``format(of:)``).
    ///
    /// Every file a command meets is sniffed over its first 8 KiB, and for text (a crash report that
    /// `memory-limits` passes over) this count was the sniffer's whole cost at about 4 instructions a byte; eight
    /// bytes are tested at a time instead. ``controlBytesByByte(_:)`` is the reference it is held to.
    static func controlBytes(_ b: BorrowedBytes) -> (count: Int, sawNUL: Bool) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var control = 0
        var nulFlags: UInt64 = 0
        var p = 0
        while let word = b.word(at: p) {
            p &+= 8
            // Per byte, with no borrow between bytes (seven-bit values): the high bit says "below 0x20".
            let low = word & ~highs
            let ascii = ~word & highs
            let below20 = ((ones &* 0x9F) &- low) & ascii
            if below20 == 0 { continue }
            // Exact equality with `v`: 0x80 - (byte ^ v) keeps its high bit only for a zero difference.
            func equal(_ v: UInt64) -> UInt64 { (highs &- (low ^ (ones &* v))) & ascii }
            let allowed = equal(0x09) | equal(0x0A) | equal(0x0C) | equal(0x0D)
            control &+= (below20 & ~allowed).nonzeroBitCount
            nulFlags |= equal(0x00)
        }
        let tail = controlBytesByByte(b.slice(from: p))
        return (control &+ tail.count, nulFlags != 0 || tail.sawNUL)
    }

    /// ``controlBytes(_:)`` a byte at a time: its reference, and its tail.
    static func controlBytesByByte(_ b: BorrowedBytes) -> (count: Int, sawNUL: Bool) {
        var control = 0
        var sawNUL = false
        for byte in b where byte < 0x20 && !isSpace(byte) && byte != 0x0C {
            if byte == 0 { sawNUL = true }
            control += 1
        }
        return (control, sawNUL)
    }

    private static func containsAny(_ b: BorrowedBytes, _ needles: [String]) -> Bool {
        needles.contains { contains(b, $0) }
    }

    /// True when `haystack` contains the UTF-8 bytes of `needle` (plain search, for short prefixes of files).
    package static func containsText(_ haystack: BorrowedBytes, _ needle: String) -> Bool {
        contains(haystack, needle)
    }

    /// Substring search through ``UTF8Search`` (sixteen or eight positions a step): the sniffers look for a dozen markers in
    /// up to 64 KiB of every file, which a byte-at-a-time loop made the largest cost of reading a small report.
    static func contains(_ haystack: BorrowedBytes, _ needle: String) -> Bool {
        firstOffset(of: needle, in: haystack, from: 0) != nil
    }

    /// The offset of the first occurrence of `needle`'s UTF-8 bytes in `haystack` at or after `start`, or nil.
    package static func firstOffset(of needle: String, in haystack: BorrowedBytes, from start: Int) -> Int? {
        var needle = needle
        return needle.withBorrowedUTF8 { haystack.firstIndex(of: $0, from: start) }
    }
}
