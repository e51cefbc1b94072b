#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decompresses gzip and zlib streams with the system zlib, with a bound on the output size.
///
/// Both headers are detected automatically (`windowBits` 15 + 32). A stream that ends early yields what was
/// decompressed plus ``Result/isTruncated``, so a cut-off archive still gives its readable part.
public enum Inflate {
    /// What a decompression produced.
    public struct Result: Sendable, Equatable {
        public var bytes: [UInt8]
        /// True when the input ended before the compressed stream did.
        public var isTruncated: Bool
    }

    /// Decompresses `input` (gzip or zlib).
    ///
    /// - Parameters:
    ///   - input: The compressed bytes.
    ///   - maxOutputBytes: The most output accepted: a guard against decompression bombs.
    /// - Returns: The decompressed bytes and whether the stream was cut off.
    /// - Throws: ``InputError`` with code `syntax` for corrupt data, `tooLarge` past the output bound.
    public static func decompress(_ input: [UInt8], maxOutputBytes: Int = 1 << 30) throws(InputError) -> Result {
        let inflater = try Inflater()
        let (bytes, ended) = try inflater.feed(input, maxOutputBytes: maxOutputBytes)
        return Result(bytes: bytes, isTruncated: !ended)
    }

    /// Decompresses the file at `source` into a new file at `destination`, in chunks (never all in memory).
    ///
    /// - Returns: Whether the compressed stream was cut off.
    /// - Throws: ``InputError`` when a file cannot be read or written, the data is corrupt, or the output would
    ///   exceed `maxOutputBytes`.
    @discardableResult
    public static func decompressFile(
        at source: String,
        to destination: String,
        maxOutputBytes: Int = 8 << 30
    ) throws(InputError) -> Bool {
        let input = open(source, O_RDONLY)
        guard input >= 0 else { throw InputError(.unreadable, "cannot open \(source): \(errnoText())") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard output >= 0 else { throw InputError(.unreadable, "cannot create \(destination): \(errnoText())") }
        defer { close(output) }
        let inflater = try Inflater()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { buffer in read(input, buffer.baseAddress, buffer.count) }
            if got < 0 { throw InputError(.unreadable, "read failed: \(errnoText())") }
            // Read to the end: a later gzip member is part of the content (see ``Inflater``).
            if got == 0 { return !inflater.isAtEnd }
            let (piece, _) = try inflater.feed(Array(chunk[0..<got]), maxOutputBytes: maxOutputBytes)
            let written = piece.withUnsafeBytes { buffer -> Bool in
                var offset = 0
                while offset < buffer.count {
                    let n = write(output, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                    if n <= 0 { return false }
                    offset += n
                }
                return true
            }
            if !written { throw InputError(.unreadable, "cannot write \(destination): \(errnoText())") }
            if inflater.trailingOffset(atEnd: false) != nil { return false }
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
