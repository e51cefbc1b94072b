import CZlib

/// Compresses test input with the system zlib: gzip (`windowBits` 31) or zlib (15) wrapping, or raw deflate (-15).
public enum Compressing {
    public static func deflate(_ bytes: [UInt8], gzip: Bool = true, raw: Bool = false) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(
            &stream,
            Z_BEST_COMPRESSION,
            Z_DEFLATED,
            raw ? -15 : gzip ? 31 : 15,
            8,
            Z_DEFAULT_STRATEGY,
            ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size)
        )
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let count = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return Int(stream.total_out)
            }
        }
        return Array(output.prefix(count))
    }
}
