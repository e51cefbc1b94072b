import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The elements of a JSON array encoded before the text that comes ahead of the array is known, kept in a
/// temporary file without a name and written out later, in any order.
///
/// `http --format json` writes a capture's diagnostics and summary before its transactions, and both come from every
/// transaction. Spooled, each transaction is built and encoded once, as the file is read; without the spool, a light
/// pass built every entry for the summary and a second pass parsed and built each one again to write it. The
/// elements are on disk, not in memory, and the file has no name from the moment it is made
/// (``TemporaryFiles/makeUnlinkedFile(in:prefix:)``), so nothing is left behind and nothing lands beside the input.
///
/// One thread appends, then writes: not `Sendable`.
package final class JSONArraySpool {
    /// Where the encoded bytes go: the file, written at offsets of its own (a restart empties it and starts again
    /// from 0, which `write(2)`'s file position would not).
    private final class Output {
        let fd: Int32
        var written = 0
        var failed = false

        init(fd: Int32) {
            self.fd = fd
        }

        func take(_ bytes: BorrowedBytes) {
            guard !failed else { return }
            let offset = written
            guard bytes.writeAll({ pwrite(fd, $0, $1, off_t(offset + $2)) }) else {
                failed = true
                return
            }
            written += bytes.count
        }
    }

    private let output: Output
    private let pretty: Bool
    /// The array's depth in its document: elements are encoded one level deeper.
    private let depth: Int
    private let chunk: Int
    private var sink: JSONByteSink
    /// Writes one element's bytes, given its place in the array written and among the elements appended, to the
    /// output it is handed.
    package typealias ElementWriter = (
        _ rank: Int, _ position: Int, BorrowedBytes, (BorrowedBytes) -> Void
    ) -> Void

    /// Where each element starts in the file; it ends where the next starts (the last, at ``end``).
    private var starts: [Int] = []
    private var end = 0
    private var finished = false

    /// A spool whose elements are written as `encoder` writes them in an array `depth` levels deep.
    ///
    /// - Parameters:
    ///   - encoder: the layout (compact or pretty).
    ///   - depth: the array's depth in its document.
    ///   - directory: where the nameless file is made (`TMPDIR`, else `/tmp`, when nil).
    ///   - chunk: bytes encoded before they go to the file, and read back at once (tests use tiny ones).
    /// - Throws: ``InputError`` when the file cannot be created.
    package init(
        encoder: SortedJSONEncoder,
        depth: Int,
        directory: String? = nil,
        chunk: Int = 1 << 20
    ) throws(InputError) {
        let fd = try TemporaryFiles.makeUnlinkedFile(in: directory, prefix: "apm-inspect-spool")
        output = Output(fd: fd)
        pretty = encoder.pretty
        self.depth = max(0, depth)
        self.chunk = max(16, chunk)
        sink = Self.sink(to: output, chunk: self.chunk)
    }

    deinit {
        close(output.fd)
    }

    /// Elements appended since the spool was made or last emptied.
    package var count: Int { starts.count }

    /// False once a write failed (a full disk) or an element failed to encode: the spool is then spent for good,
    /// emptied or not, and the caller writes its array otherwise.
    package var isUsable: Bool { !output.failed }

    /// Encodes `value` as the next element; false when it could not be kept (the spool is then spent).
    @discardableResult
    package func append(_ value: some Encodable) -> Bool {
        appendEncoded { try SortedJSONEncoder(pretty: pretty).encode(value, depth: depth + 1, into: sink) }
    }

    /// ``append(_:)`` for a value that writes itself, chosen at compile time: the general one asks at run time
    /// whether its value is ``JSONDirectEncodable``, a cast that cost about 1,000 instructions an element (a fifth of
    /// the per-row cost of `energy --format json`).
    @discardableResult
    package func append(_ value: some JSONDirectEncodable) -> Bool {
        appendEncoded { try SortedJSONEncoder(pretty: pretty).encode(direct: value, depth: depth + 1, into: sink) }
    }

    private func appendEncoded(_ encode: () throws -> Void) -> Bool {
        guard !output.failed, !finished else { return false }
        let start = sink.total
        do {
            try encode()
        } catch {
            // The sink holds part of a value: nothing after it can be trusted.
            output.failed = true
            return false
        }
        starts.append(start)
        return !output.failed
    }

    /// Forgets every element and empties the file, for a reader that starts again from its first element; false when
    /// the file cannot be emptied (the spool is then spent).
    @discardableResult
    package func removeAll() -> Bool {
        starts.removeAll(keepingCapacity: true)
        end = 0
        finished = false
        output.written = 0
        sink = Self.sink(to: output, chunk: chunk)
        if ftruncate(output.fd, 0) != 0 { output.failed = true }
        return !output.failed
    }

    /// Writes the array, `[` to `]`, as encoding the elements in that order at the spool's depth writes it; the
    /// elements are taken in `order` (positions in the order they were appended), all of them in turn when nil.
    ///
    /// - Parameters:
    ///   - order: for each place in the array, the position of the element written there.
    ///   - element: writes one element's bytes: `rank` is its place in the array written, `position` its place among
    ///     the elements appended (so a caller can change what depends on the place, such as an index). Nil hands the
    ///     bytes over as they are.
    ///   - body: takes the output, in pieces.
    /// - Returns: false when the spool is spent or a read failed; the output is then cut short if part of it was
    ///   handed over (only a read failure does that).
    package func writeArray(
        order: [Int]? = nil,
        element: ElementWriter? = nil,
        to body: (BorrowedBytes) -> Void
    ) -> Bool {
        if !finished {
            sink.flush()
            end = sink.total
            finished = true
        }
        guard !output.failed, order.map({ $0.count == starts.count }) ?? true else { return false }
        var reader = Reader(fd: output.fd, capacity: chunk)
        // The pieces (separators, elements, parts of elements) go out in chunks: an unbuffered output takes one
        // system call per piece handed over.
        return withoutActuallyEscaping(body) { body -> Bool in
            let gathered = JSONByteSink(capacity: 65_536, chunk: 65_536, holdLimit: 0, drain: body)
            let out: (BorrowedBytes) -> Void = { gathered.append($0) }
            let indent = 2 * (depth + 1)
            gathered.append(UInt8(ascii: "["))
            for rank in starts.indices {
                let position = order.map { $0[rank] } ?? rank
                guard starts.indices.contains(position) else {
                    gathered.flush()
                    return false
                }
                if pretty {
                    gathered.append(lineBreakIndentedBy: indent, comma: rank > 0)
                } else if rank > 0 {
                    gathered.append(UInt8(ascii: ","))
                }
                let start = starts[position]
                let stop = position + 1 < starts.count ? starts[position + 1] : end
                let handed = reader.withBytes(start..<stop) { bytes in
                    if let element { element(rank, position, bytes, out) } else { out(bytes) }
                }
                guard handed else {
                    gathered.flush()
                    return false
                }
            }
            if pretty {
                if starts.isEmpty { gathered.append(UInt8(ascii: "\n")) }
                gathered.append(lineBreakIndentedBy: indent - 2, comma: false)
            }
            gathered.append(UInt8(ascii: "]"))
            gathered.flush()
            return true
        }
    }

    private static func sink(to output: Output, chunk: Int) -> JSONByteSink {
        JSONByteSink(capacity: chunk, chunk: chunk, holdLimit: 0, drain: { output.take($0) })
    }

    /// Reads ranges of the file through one buffer: elements taken in the order they were written are read a buffer
    /// at a time, not one `pread` each.
    private struct Reader {
        let fd: Int32
        var buffer: [UInt8]
        /// The file offset of `buffer[0]`, and how many bytes of it are valid.
        var base = 0
        var valid = 0

        init(fd: Int32, capacity: Int) {
            self.fd = fd
            buffer = [UInt8](repeating: 0, count: capacity)
        }

        /// Calls `body` with the bytes of `range`; false when they cannot all be read.
        mutating func withBytes(
            _ range: Range<Int>,
            _ body: (BorrowedBytes) -> Void
        ) -> Bool {
            if range.lowerBound >= base, range.upperBound <= base + valid {
                let from = range.lowerBound - base
                buffer.withBorrowedBytes { body($0.slice(from..<from + range.count)) }
                return true
            }
            if range.count > buffer.count {
                // Larger than the buffer: read on its own.
                var own = [UInt8](repeating: 0, count: range.count)
                guard Self.read(fd, into: &own, count: range.count, at: range.lowerBound) else { return false }
                own.withBorrowedBytes { body($0) }
                return true
            }
            let wanted = buffer.count
            var got = 0
            var ok = wanted > 0
            while ok, got < wanted {
                let n = buffer.fillBytes(at: got, count: wanted - got) {
                    pread(fd, $0, $1, off_t(range.lowerBound + got))
                }
                if n < 0, errno == EINTR { continue }
                if n < 0 { ok = false }
                if n <= 0 { break }
                got += n
            }
            base = range.lowerBound
            valid = ok ? got : 0
            guard ok, range.count <= got else { return false }
            buffer.withBorrowedBytes { body($0.prefix(range.count)) }
            return true
        }

        private static func read(_ fd: Int32, into bytes: inout [UInt8], count: Int, at offset: Int) -> Bool {
            var got = 0
            while got < count {
                let n = bytes.fillBytes(at: got, count: count - got) { pread(fd, $0, $1, off_t(offset + got)) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                got += n
            }
            return got == count
        }
    }
}
