#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in chunks, decompressing it on the fly when it is gzip or zlib.
///
/// Each chunk comes with the count of input bytes read so far, so a reader can bound the expansion ratio.
final class ByteSource {
    private let path: RawPath
    private(set) var truncated = false

    /// Compressed input is inflated in slices this small, so even a bomb (about 1032:1) yields a few MB at once.
    static let slice = 4096

    init(path: RawPath) {
        self.path = path
    }

    /// Calls `body` with successive chunks of the (decompressed) content and the input bytes consumed so far.
    func stream(_ body: ([UInt8], UInt64) throws -> Void) throws {
        let fd = path.withCString { open($0, O_RDONLY) }
        guard fd >= 0 else { throw InputError(.unreadable, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var consumed: UInt64 = 0
        func next() throws(InputError) -> [UInt8]? {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(errno)))") }
            return got == 0 ? nil : Array(chunk[0..<got])
        }
        guard let first = try next() else { return }
        let compressed = first.count >= 2 && first[0] == 0x1F && first[1] == 0x8B
        guard compressed else {
            consumed += UInt64(first.count)
            try body(first, consumed)
            while let more = try next() {
                consumed += UInt64(more.count)
                try body(more, consumed)
            }
            return
        }
        let inflater = try Inflater()
        var input: [UInt8]? = first
        while let data = input {
            var start = 0
            while start < data.count {
                let end = min(data.count, start + Self.slice)
                let (output, ended) = try inflater.feed(Array(data[start..<end]))
                consumed += UInt64(end - start)
                if !output.isEmpty { try body(output, consumed) }
                if ended { return }
                start = end
            }
            input = try next()
        }
        truncated = true
    }

    /// The same for bytes in memory; returns whether a compressed stream was cut off.
    static func stream(_ bytes: [UInt8], _ body: ([UInt8], UInt64) throws -> Void) throws -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B else {
            try body(bytes, UInt64(bytes.count))
            return false
        }
        let inflater = try Inflater()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + slice)
            let (output, ended) = try inflater.feed(Array(bytes[start..<end]))
            if !output.isEmpty { try body(output, UInt64(end)) }
            if ended { return false }
            start = end
        }
        return true
    }
}
