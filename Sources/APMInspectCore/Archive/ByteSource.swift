#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in chunks, decompressing it on the fly when it is gzip or zlib.
final class ByteSource {
    private let path: String
    private(set) var truncated = false

    init(path: String) throws(InputError) {
        self.path = path
    }

    /// Calls `body` with successive chunks of the (decompressed) content.
    func stream(_ body: ([UInt8]) throws -> Void) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(.unreadable, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func next() throws(InputError) -> [UInt8]? {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(errno)))") }
            return got == 0 ? nil : Array(chunk[0..<got])
        }
        guard let first = try next() else { return }
        let compressed = first.count >= 2 && first[0] == 0x1F && first[1] == 0x8B
        guard compressed else {
            try body(first)
            while let more = try next() { try body(more) }
            return
        }
        let inflater = try Inflater()
        var input: [UInt8]? = first
        while let data = input {
            // Small compressed slices keep each decompressed piece small, even for a bomb (about 1000:1).
            var start = 0
            while start < data.count {
                let end = min(data.count, start + 4096)
                let (output, ended) = try inflater.feed(Array(data[start..<end]))
                if !output.isEmpty { try body(output) }
                if ended { return }
                start = end
            }
            input = try next()
        }
        truncated = true
    }
}
