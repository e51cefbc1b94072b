import CZlib

/// An incremental gzip/zlib decompressor: feed compressed chunks, get decompressed chunks.
///
/// gzip allows members one after another (`cat a.gz b.gz`, appending writers): like `gzip -d`, every member is
/// read, as one output, under one output bound. Bytes after a member that do not start another gzip member are
/// not decompressed; ``trailingOffset(atEnd:)`` says where they start, for the caller's diagnostic.
///
/// The z_stream lives at a fixed heap address for its whole life, because zlib keeps a pointer back to it.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private(set) var produced = 0
    /// Input bytes fed so far, and where the member being read started: error offsets count from the file start.
    private var fed = 0
    private var memberStart = 0
    /// A member ended at the end of the input so far: the next bytes decide whether another one starts.
    private var betweenMembers = false
    /// A lone 0x1F after a member, kept until the next byte says whether it starts a gzip header.
    private var carried: [UInt8] = []
    /// The input offset of the first byte after the last member that is not another member; nil while none.
    private(set) var trailing: Int?

    /// True when the input so far ends on a complete member (or trailing data after one): nothing is cut off.
    var isAtEnd: Bool { betweenMembers }

    /// Where the bytes after the last member start, when they are not another member.
    ///
    /// Once the input is complete (`atEnd`), a lone 0x1F kept to see whether a header follows counts as trailing
    /// too.
    func trailingOffset(atEnd: Bool) -> Int? {
        trailing ?? (atEnd && !carried.isEmpty ? fed - carried.count : nil)
    }

    /// `windowBits` as zlib takes it: 15 + 32 detects a gzip or zlib header; -15 reads raw deflate (zip entries).
    init(windowBits: Int32 = 15 + 32) throws(InputError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init2(stream, windowBits) == Z_OK else {
            stream.deallocate()
            throw InputError(.syntax, "zlib failed to start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decompresses `input`; returns the output and whether the input so far ends on a complete member.
    ///
    /// - Throws: ``InputError`` with code `syntax` for corrupt data, `tooLarge` past `maxOutputBytes` in total
    ///   (over every member).
    func feed(_ input: [UInt8], maxOutputBytes: Int = Int.max) throws(InputError) -> ([UInt8], Bool) {
        var collected: [UInt8] = []
        let atEnd = try pump(input, maxOutputBytes: maxOutputBytes) { piece throws(InputError) in
            collected.append(contentsOf: piece)
            return true
        }
        return (collected, atEnd)
    }

    /// Decompresses `input`, handing each piece of output (at most 64 KiB) to `body` as soon as zlib produces it,
    /// so a caller that writes to disk or stops early never holds more than one piece.
    ///
    /// - Parameters:
    ///   - input: The compressed bytes.
    ///   - maxOutputBytes: The most output accepted over the inflater's life (every member).
    ///   - body: Returns false to stop; the remaining input is then left unread.
    /// - Returns: Whether the input so far ends on a complete member (false when `body` stopped it or the input
    ///   ran out inside a member).
    /// - Throws: ``InputError`` with code `syntax` for corrupt data, `tooLarge` the moment the output passes
    ///   `maxOutputBytes` in total (nothing past the limit is handed to `body`).
    func pump(
        _ input: [UInt8],
        maxOutputBytes: Int = Int.max,
        _ body: (UnsafeBufferPointer<UInt8>) throws(InputError) -> Bool
    ) throws(InputError) -> Bool {
        var inputStart = fed
        fed += input.count
        guard trailing == nil else { return true }
        var input = input
        if betweenMembers {
            if !carried.isEmpty {
                input = carried + input
                inputStart -= carried.count
                carried = []
            }
            switch Self.nextMember(input, at: 0) {
            case .none: return true
            case .undecided:
                carried = input
                return true
            case .trailing:
                trailing = inputStart
                return true
            case .member:
                guard inflateReset(stream) == Z_OK else { throw InputError(.syntax, "zlib failed to restart") }
                betweenMembers = false
                memberStart = inputStart
            }
        }
        var stoppedByBody = false
        let bufferStart = inputStart
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
                        at: SourceLocation(byteOffset: memberStart + Int(clamping: stream.pointee.total_in))
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
                    if !keepGoing {
                        stoppedByBody = true
                        return
                    }
                }
                if code == Z_STREAM_END {
                    let rest = Int(stream.pointee.avail_in)
                    let position = inBuffer.count - rest
                    switch Self.nextMember(UnsafeBufferPointer(inBuffer), at: position) {
                    case .none:
                        betweenMembers = true
                    case .undecided:
                        betweenMembers = true
                        carried = Array(inBuffer[position...])
                    case .trailing:
                        betweenMembers = true
                        trailing = bufferStart + position
                    case .member:
                        // The rest of the input stays where it is; reset keeps the gzip/zlib detection.
                        guard inflateReset(stream) == Z_OK else {
                            throw InputError(.syntax, "zlib failed to restart")
                        }
                        memberStart = bufferStart + position
                        continue
                    }
                    return
                }
                if code == Z_BUF_ERROR || (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return }
            }
        }
        return !stoppedByBody && isAtEnd
    }

    private enum Next {
        /// No bytes after the member (yet).
        case none
        /// One byte, 0x1F: the next one decides.
        case undecided
        /// Another gzip member starts here.
        case member
        /// Something else: not decompressed.
        case trailing
    }

    private static func nextMember<C: Collection<UInt8>>(_ bytes: C, at position: Int) -> Next
    where C.Index == Int {
        let rest = bytes.count - position
        guard rest > 0 else { return .none }
        guard bytes[position] == 0x1F else { return .trailing }
        guard rest > 1 else { return .undecided }
        return bytes[position + 1] == 0x8B ? .member : .trailing
    }
}
