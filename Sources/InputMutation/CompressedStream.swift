import APMInspectCore

/// Re-wraps mutated content as gzip or zlib with stored (uncompressed) deflate blocks and correct checksums, so
/// a mutation of what is inside reaches the inner parser instead of failing the checksum.
enum CompressedStream {
    static func gzip(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        out += stored(content)
        appendLE(&out, UInt64(crc32(content)), 4)
        appendLE(&out, UInt64(truncatingIfNeeded: content.count), 4)
        return out
    }

    static func zlib(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out += stored(content)
        let adler = adler32(content)
        out += [
            UInt8(truncatingIfNeeded: adler >> 24), UInt8(truncatingIfNeeded: adler >> 16),
            UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler),
        ]
        return out
    }

    /// Deflate stored blocks of at most 65535 bytes.
    private static func stored(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(content.count + content.count / 65535 * 5 + 5)
        var start = 0
        repeat {
            let end = min(start + 65535, content.count)
            let length = end - start
            out.append(end == content.count ? 1 : 0)
            appendLE(&out, UInt64(length), 2)
            appendLE(&out, UInt64(~UInt16(length)), 2)
            out += content[start..<end]
            start = end
        } while start < content.count
        return out
    }

    private static func appendLE(_ out: inout [UInt8], _ value: UInt64, _ width: Int) {
        for k in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
    }

    private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { b in
                for byte in b { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
            }
        }
        return b << 16 | a
    }
}
