import CZlib

/// An incremental gzip/zlib decompressor: feed compressed chunks, get decompressed chunks.
///
/// The z_stream lives at a fixed heap address for its whole life, because zlib keeps a pointer back to it.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private(set) var produced = 0

    init() throws(InputError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init2(stream, 15 + 32) == Z_OK else {
            stream.deallocate()
            throw InputError(.syntax, "zlib failed to start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decompresses `input`; returns the output and whether the compressed stream ended.
    ///
    /// - Throws: ``InputError`` with code `syntax` for corrupt data, `tooLarge` past `maxOutputBytes` in total.
    func feed(_ input: [UInt8], maxOutputBytes: Int = Int.max) throws(InputError) -> ([UInt8], Bool) {
        var collected: [UInt8] = []
        let ended = try pump(input, maxOutputBytes: maxOutputBytes) { piece throws(InputError) in
            collected.append(contentsOf: piece)
            return true
        }
        return (collected, ended)
    }

    /// Decompresses `input`, handing each piece of output (at most 64 KiB) to `body` as soon as zlib produces it,
    /// so a caller that writes to disk or stops early never holds more than one piece.
    ///
    /// - Parameters:
    ///   - input: The compressed bytes.
    ///   - maxOutputBytes: The most output accepted over the inflater's life.
    ///   - body: Returns false to stop; the remaining input is then left unread.
    /// - Returns: Whether the compressed stream ended (false when `body` stopped it or the input ran out).
    /// - Throws: ``InputError`` with code `syntax` for corrupt data, `tooLarge` the moment the output passes
    ///   `maxOutputBytes` in total (nothing past the limit is handed to `body`).
    func pump(
        _ input: [UInt8],
        maxOutputBytes: Int = Int.max,
        _ body: (UnsafeBufferPointer<UInt8>) throws(InputError) -> Bool
    ) throws(InputError) -> Bool {
        var input = input
        var ended = false
        try input.withUnsafeMutableBufferPointer { (inBuffer) throws(InputError) in
            stream.pointee.next_in = inBuffer.baseAddress
            stream.pointee.avail_in = uInt(inBuffer.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            while true {
                let (code, count) = output.withUnsafeMutableBufferPointer { outBuffer -> (Int32, Int) in
                    stream.pointee.next_out = outBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outBuffer.count)
                    let code = inflate(stream, Z_NO_FLUSH)
                    return (code, outBuffer.count - Int(stream.pointee.avail_out))
                }
                if code == Z_DATA_ERROR || code == Z_NEED_DICT || code == Z_MEM_ERROR || code == Z_STREAM_ERROR {
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "corrupt compressed data"
                    throw InputError(
                        .syntax,
                        "decompression failed: \(message)",
                        at: SourceLocation(byteOffset: Int(stream.pointee.total_in))
                    )
                }
                produced += count
                if produced > maxOutputBytes {
                    throw InputError(.tooLarge, "decompressed data exceeds the limit of \(maxOutputBytes) bytes")
                }
                if count > 0 {
                    let keepGoing = try output.withUnsafeBufferPointer { (buffer) throws(InputError) -> Bool in
                        try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
                    }
                    if !keepGoing { return }
                }
                if code == Z_STREAM_END {
                    ended = true
                    return
                }
                if code == Z_BUF_ERROR || (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return }
            }
        }
        return ended
    }
}
