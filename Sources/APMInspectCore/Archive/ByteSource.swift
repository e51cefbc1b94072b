import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in chunks, decompressing it on the fly when it is gzip or zlib.
///
/// Each chunk comes with the count of input bytes read so far, so a reader can bound the expansion ratio. Every
/// gzip member is read (see ``Inflater``); the reader returns false once it wants no more, so nothing past the
/// end of a tar archive is inflated.
final class ByteSource {
    private let path: RawPath
    private(set) var truncated = false
    /// Where bytes after the compressed data start when they are not another gzip member (they are not read).
    private(set) var trailingOffset: Int?

    /// Compressed input is inflated in slices this small, so even a bomb (about 1032:1) yields a few MB at once.
    static let slice = 4096

    init(path: RawPath) {
        self.path = path
    }

    /// Calls `body` with successive chunks of the (decompressed) content and the input bytes consumed so far,
    /// until the content ends or `body` returns false.
    func stream(_ body: ([UInt8], UInt64) throws -> Bool) throws {
        let fd = path.withCString { open($0, O_RDONLY) }
        guard fd >= 0 else { throw InputError(.unreadable, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var consumed: UInt64 = 0
        func next() throws(InputError) -> [UInt8]? {
            let got = chunk.fillBytes(at: 0, count: chunk.count) { read(fd, $0, $1) }
            if got < 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(errno)))") }
            return got == 0 ? nil : Array(chunk[0..<got])
        }
        guard let first = try next() else { return }
        let compressed = first.count >= 2 && first[0] == 0x1F && first[1] == 0x8B
        guard compressed else {
            consumed += UInt64(first.count)
            guard try body(first, consumed) else { return }
            while let more = try next() {
                consumed += UInt64(more.count)
                guard try body(more, consumed) else { return }
            }
            return
        }
        let inflater = try Inflater()
        var input: [UInt8]? = first
        while let data = input {
            var start = 0
            while start < data.count {
                let end = min(data.count, start + Self.slice)
                let (output, _) = try inflater.feed(Array(data[start..<end]))
                consumed += UInt64(end - start)
                if !output.isEmpty { guard try body(output, consumed) else { return } }
                if let offset = inflater.trailingOffset(atEnd: false) {
                    trailingOffset = offset
                    return
                }
                start = end
            }
            input = try next()
        }
        trailingOffset = inflater.trailingOffset(atEnd: true)
        truncated = !inflater.isAtEnd
    }

    /// The same for bytes in memory; returns whether a compressed stream was cut off, and where bytes that are not
    /// another gzip member start after it.
    static func stream(
        _ bytes: [UInt8],
        _ body: ([UInt8], UInt64) throws -> Bool
    ) throws -> (truncated: Bool, trailingOffset: Int?) {
        guard bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B else {
            _ = try body(bytes, UInt64(bytes.count))
            return (false, nil)
        }
        let inflater = try Inflater()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + slice)
            let (output, _) = try inflater.feed(Array(bytes[start..<end]))
            if !output.isEmpty { guard try body(output, UInt64(end)) else { return (false, nil) } }
            if let offset = inflater.trailingOffset(atEnd: false) { return (false, offset) }
            start = end
        }
        return (!inflater.isAtEnd, inflater.trailingOffset(atEnd: true))
    }

    /// The finding for bytes after the compressed data that are not another gzip member.
    static func trailingNote(_ offset: Int) -> Diagnostic {
        Diagnostic(
            .warning,
            .gzipTrailingBytes,
            "bytes from offset \(offset) after the compressed data are not another gzip member; ignored (gzip -d "
                + "ignores them too)"
        )
    }
}
