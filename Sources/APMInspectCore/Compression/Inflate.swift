import CZlib

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
        var output: [UInt8] = []
        let truncated = try stream(input: input, maxOutputBytes: maxOutputBytes) { chunk in
            output.append(contentsOf: chunk)
        }
        return Result(bytes: output, isTruncated: truncated)
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
        var writeFailed = false
        var state = z_stream()
        guard czlib_inflate_init2(&state, 15 + 32) == Z_OK else { throw InputError(.syntax, "zlib failed to start") }
        defer { inflateEnd(&state) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var produced = 0
        var ended = false
        while !ended {
            let got = chunk.withUnsafeMutableBytes { buffer in read(input, buffer.baseAddress, buffer.count) }
            if got < 0 { throw InputError(.unreadable, "read failed: \(errnoText())") }
            if got == 0 { break }
            ended = try feed(&state, Array(chunk[0..<got]), produced: &produced, max: maxOutputBytes) { piece in
                piece.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = write(output, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                        if n <= 0 {
                            writeFailed = true
                            return
                        }
                        offset += n
                    }
                }
            }
            if writeFailed { throw InputError(.unreadable, "cannot write \(destination): \(errnoText())") }
        }
        return !ended
    }

    /// Runs `input` through one inflate stream, handing output chunks to `sink`; returns true when truncated.
    private static func stream(
        input: [UInt8],
        maxOutputBytes: Int,
        sink: ([UInt8]) -> Void
    ) throws(InputError) -> Bool {
        var state = z_stream()
        guard czlib_inflate_init2(&state, 15 + 32) == Z_OK else { throw InputError(.syntax, "zlib failed to start") }
        defer { inflateEnd(&state) }
        var produced = 0
        let ended = try feed(&state, input, produced: &produced, max: maxOutputBytes, sink: sink)
        return !ended
    }

    /// Feeds `input` to the stream; returns true when the compressed stream ended.
    private static func feed(
        _ state: inout z_stream,
        _ input: [UInt8],
        produced: inout Int,
        max maxOutputBytes: Int,
        sink: ([UInt8]) -> Void
    ) throws(InputError) -> Bool {
        var input = input
        var out = [UInt8](repeating: 0, count: 1 << 16)
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { (inBuffer) throws(InputError) in
            state.next_in = inBuffer.baseAddress
            state.avail_in = uInt(inBuffer.count)
            repeat {
                let (code, count) = out.withUnsafeMutableBufferPointer { outBuffer -> (Int32, Int) in
                    state.next_out = outBuffer.baseAddress
                    state.avail_out = uInt(outBuffer.count)
                    let code = inflate(&state, Z_NO_FLUSH)
                    return (code, outBuffer.count - Int(state.avail_out))
                }
                status = code
                if code == Z_DATA_ERROR || code == Z_NEED_DICT || code == Z_MEM_ERROR || code == Z_STREAM_ERROR {
                    let message = state.msg.map { String(cString: $0) } ?? "corrupt compressed data"
                    throw InputError(
                        .syntax,
                        "decompression failed: \(message)",
                        at: SourceLocation(byteOffset: Int(state.total_in))
                    )
                }
                produced += count
                if produced > maxOutputBytes {
                    throw InputError(.tooLarge, "decompressed data exceeds the limit of \(maxOutputBytes) bytes")
                }
                if count > 0 { sink(Array(out[0..<count])) }
                if code == Z_BUF_ERROR { break }
            } while status != Z_STREAM_END && (state.avail_in > 0 || state.avail_out == 0)
        }
        return status == Z_STREAM_END
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
