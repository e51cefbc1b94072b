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
package enum Inflate {
    /// What a decompression produced.
    package struct Result: Sendable, Equatable {
        package var bytes: [UInt8]
        /// True when the input ended before the compressed stream did.
        package var isTruncated: Bool
    }

    /// Decompresses `input` (gzip or zlib).
    ///
    /// - Parameters:
    ///   - input: The compressed bytes.
    ///   - maxOutputBytes: The most output accepted: a guard against decompression bombs.
    /// - Returns: The decompressed bytes and whether the stream was cut off.
    /// - Throws: ``InputError`` with code `syntax` for corrupt data, `tooLarge` past the output bound.
    package static func decompress(_ input: [UInt8], maxOutputBytes: Int = 1 << 30) throws(InputError) -> Result {
        let inflater = try Inflater()
        let (bytes, ended) = try inflater.feed(input, maxOutputBytes: maxOutputBytes)
        return Result(bytes: bytes, isTruncated: !ended)
    }

    /// Decompresses an HTTP `deflate` body: a zlib stream as RFC 9110 §8.4.1.2 defines it, or, when the bytes are
    /// not one, raw deflate without the zlib header, which servers send and browsers accept.
    ///
    /// zlib is tried first (its header and checksum make a false match unlikely); raw deflate (`windowBits` -15) is
    /// tried only when zlib calls the data corrupt, never when the output bound is passed.
    ///
    /// - Returns: The decompressed bytes, whether the stream was cut off, and whether it was raw deflate.
    /// - Throws: ``InputError`` with code `syntax` when neither reading works, `tooLarge` past the output bound.
    package static func decompressHTTPDeflate(_ input: [UInt8], maxOutputBytes: Int = 1 << 30) throws(InputError)
        -> (result: Result, raw: Bool)
    {
        do {
            return (try decompress(input, maxOutputBytes: maxOutputBytes), false)
        } catch {
            guard error.code == .syntax else { throw error }
            let inflater = try Inflater(windowBits: -15)
            let (bytes, ended) = try inflater.feed(input, maxOutputBytes: maxOutputBytes)
            return (Result(bytes: bytes, isTruncated: !ended), true)
        }
    }

    /// How a decompression to a file ended.
    package struct FileOutcome: Sendable, Equatable {
        /// True when the input ended before the compressed stream did.
        package var isTruncated: Bool
        /// True when the output stopped at the length `head` asked for while the stream went on: the rest
        /// (padding after a database, say) was never decompressed.
        package var stoppedAtLength: Bool
        /// Bytes written to the destination.
        package var bytesWritten: Int
    }

    /// Decompresses the file at `source` into a new file at `destination`, in pieces of at most 64 KiB (never
    /// all in memory), checking the bound before each piece is written.
    ///
    /// - Parameters:
    ///   - source: The compressed file.
    ///   - destination: The file to create.
    ///   - maxOutputBytes: The most bytes written; decompression stops with `tooLarge` the moment it is passed.
    ///   - headLength: How many output bytes `head` needs to see.
    ///   - head: Called once with the first `headLength` output bytes (or all of them when the stream is shorter),
    ///     before anything is written: returns how many bytes are worth keeping (decompression stops there), nil
    ///     for no bound below `maxOutputBytes`, or throws to refuse the stream before a byte reaches the disk.
    /// - Returns: Whether the stream was cut off or stopped at the head's length, and how much was written.
    /// - Throws: ``InputError`` when a file cannot be read or written (the destination must not exist: it is
    ///   created exclusively, mode 0600), the data is corrupt, a bound is passed, or `head` refuses.
    package static func decompressFile(
        at source: String,
        to destination: String,
        maxOutputBytes: Int = 8 << 30,
        headLength: Int = 0,
        head: (([UInt8]) throws(InputError) -> Int?)? = nil
    ) throws(InputError) -> FileOutcome {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw InputError(.unreadable, "cannot open \(source): \(errnoText())") }
        defer { close(input) }
        let output = try TemporaryFiles.createFile(destination)
        defer { close(output) }
        let inflater = try Inflater()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var pending: [UInt8] = []
        var decided = head == nil
        var limit = maxOutputBytes
        var written = 0
        var stopped = false
        var writeFailed = false

        /// Writes what fits under `limit`; false once the limit is reached (or a write failed).
        func emit(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let room = limit - written
            let count = min(bytes.count, max(0, room))
            if count > 0 {
                guard writeAll(output, UnsafeBufferPointer(rebasing: bytes[0..<count])) else {
                    writeFailed = true
                    return false
                }
                written += count
            }
            if count < bytes.count {
                stopped = true
                return false
            }
            return true
        }

        func decide() throws(InputError) -> Bool {
            decided = true
            if let head, let wanted = try head(pending) { limit = min(limit, max(0, wanted)) }
            let held = pending
            pending = []
            return held.withUnsafeBufferPointer { emit($0) }
        }

        while true {
            let got = chunk.withUnsafeMutableBytes { buffer in read(input, buffer.baseAddress, buffer.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw InputError(.unreadable, "read failed: \(errnoText())")
            }
            // Read to the end: a later gzip member is part of the content (see ``Inflater``).
            if got == 0 {
                if !decided { _ = try decide() }
                if writeFailed { throw InputError(.unreadable, "cannot write \(destination): \(errnoText())") }
                return FileOutcome(isTruncated: !inflater.isAtEnd, stoppedAtLength: stopped, bytesWritten: written)
            }
            var keepGoing = true
            _ = try inflater.pump(Array(chunk[0..<got]), maxOutputBytes: maxOutputBytes) {
                (piece) throws(InputError) -> Bool in
                if decided {
                    keepGoing = emit(piece)
                    return keepGoing
                }
                pending.append(contentsOf: piece)
                if pending.count >= headLength { keepGoing = try decide() }
                return keepGoing
            }
            if writeFailed { throw InputError(.unreadable, "cannot write \(destination): \(errnoText())") }
            if !keepGoing {
                return FileOutcome(isTruncated: false, stoppedAtLength: true, bytesWritten: written)
            }
            // Bytes after the last member that start no other member are not decompressed.
            if inflater.trailingOffset(atEnd: false) != nil {
                if !decided { _ = try decide() }
                if writeFailed { throw InputError(.unreadable, "cannot write \(destination): \(errnoText())") }
                return FileOutcome(isTruncated: false, stoppedAtLength: stopped, bytesWritten: written)
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
