import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable byte buffer for the JSON writer: `Array.append(contentsOf:)` cost hundreds of instructions per
/// small piece, most of a report's output time.
///
/// With a `drain`, a full buffer is handed out and reused instead of grown, so a document of any size is written in
/// a fixed amount of memory; `holdLimit` keeps the first bytes back so that a value that fails early costs nothing
/// already written.
final class JSONByteSink {
    // Unchecked: one document is written by one thread, and the runtime's exclusivity checks on these were a tenth
    // of the writer's time.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes held now (not yet drained).
    @exclusivity(unchecked) private(set) var count = 0
    /// Bytes handed to `drain` so far.
    private(set) var drained = 0
    /// Where full buffers go; nil keeps every byte (for a `String` of the whole document).
    private let drain: ((UnsafeBufferPointer<UInt8>) -> Void)?
    /// Nothing is drained before this many bytes were written.
    private let holdLimit: Int
    /// The buffer size once draining has started.
    private let chunk: Int
    /// The document fails (``JSONStreamContext/TooLarge``) once it would pass this many bytes.
    private let limit: Int
    /// Why the document failed while a value that cannot throw (``JSONObjectWriter``) was being written.
    ///
    /// The first error, thrown once that value is complete. From then on bytes are dropped, neither held nor
    /// drained, so a failed document costs no more memory and hands out nothing more than one the streaming encoder
    /// stopped.
    @exclusivity(unchecked) private(set) var failure: (any Error)?

    init(
        capacity: Int = 16_384,
        chunk: Int = 65_536,
        holdLimit: Int = 0,
        limit: Int = Int.max,
        drain: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
    ) {
        self.capacity = max(capacity, 16)
        self.storage = Self.allocate(self.capacity)
        self.chunk = max(chunk, 16)
        self.holdLimit = max(holdLimit, 0)
        self.limit = max(limit, 0)
        self.drain = drain
    }

    /// Records why the document failed (the first reason only) and drops what is held.
    func fail(_ error: any Error) {
        if failure == nil { failure = error }
        count = 0
    }

    /// Throws the recorded failure, or ``JSONStreamContext/TooLarge`` when the document passed its limit.
    func checkWritten() throws {
        if let failure { throw failure }
        if total > limit { throw JSONStreamContext.TooLarge() }
    }

    /// Bytes written so far, drained or held.
    var total: Int { drained + count }

    /// Hands every held byte to `drain` (nothing without one).
    func flush() {
        guard let drain, count > 0, failure == nil else { return }
        drain(UnsafeBufferPointer(start: storage, count: count))
        drained += count
        count = 0
    }

    deinit { free(storage) }

    /// Raw `malloc` memory, so that growing can use `realloc`.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let raw = malloc(capacity) else { return UnsafeMutablePointer<UInt8>.allocate(capacity: capacity) }
        return raw.bindMemory(to: UInt8.self, capacity: capacity)
    }

    /// Debug builds check that a writer stayed inside what it reserved (the tests write at every fill level of a
    /// small buffer); release builds compile this away.
    @inline(__always)
    private func checkWithinReservation() {
        assert(count <= capacity || failure != nil, "a writer went past the bytes it reserved")
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { makeRoom(extra) }
    }

    private func makeRoom(_ extra: Int) {
        if failure == nil, total + extra > limit { fail(JSONStreamContext.TooLarge()) }
        if failure != nil {
            count = 0
            if extra <= capacity { return }
        } else if drain != nil, total >= holdLimit {
            flush()
            // The hold may have grown the buffer to megabytes: back to a chunk that stays in cache.
            if capacity > 4 * chunk, extra <= chunk, let raw = realloc(storage, chunk) {
                storage = raw.bindMemory(to: UInt8.self, capacity: chunk)
                capacity = chunk
            }
            if extra <= capacity { return }
        }
        var grown = capacity * 2
        while grown < count + extra { grown *= 2 }
        // `realloc` moves large buffers by remapping their pages: growing no longer holds the old and the new
        // buffer at once (three times the output at the last doubling).
        if let raw = realloc(storage, grown) {
            storage = raw.bindMemory(to: UInt8.self, capacity: grown)
        } else {
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            fresh.update(from: storage, count: count)
            free(storage)
            storage = fresh
        }
        capacity = grown
    }

    func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        Self.copy(base, to: storage + count, count: bytes.count)
        count += bytes.count
    }

    func append(_ bytes: BorrowedBytes) {
        append(bytes.unsafeBytes.assumingMemoryBound(to: UInt8.self))
    }

    /// `bytes` between quotes: a string that needs no escaping, with one reservation.
    func append(quoted bytes: BorrowedBytes) {
        append(quoted: bytes.unsafeBytes.assumingMemoryBound(to: UInt8.self))
    }

    /// `bytes` between quotes: a string that needs no escaping, with one reservation.
    func append(quoted bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else {
            append(literal: #""""#)
            return
        }
        reserve(bytes.count + 2)
        let start = storage + count
        start.pointee = UInt8(ascii: "\"")
        Self.copy(base, to: start + 1, count: bytes.count)
        start[bytes.count + 1] = UInt8(ascii: "\"")
        count += bytes.count + 2
        checkWithinReservation()
    }

    /// Copies `count` bytes without a call for the short pieces the writer appends by the million (keys, names,
    /// numbers): two overlapping words for 8 to 16 bytes, `memcpy` only for longer ones.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        if count > 16 {
            target.update(from: source, count: count)
        } else if count >= 8 {
            let head = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
            let tail = UnsafeRawPointer(source + count - 8).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(target).storeBytes(of: head, as: UInt64.self)
            UnsafeMutableRawPointer(target + count - 8).storeBytes(of: tail, as: UInt64.self)
        } else {
            for k in 0..<count { target[k] = source[k] }
        }
    }

    /// A literal's bytes, read from its pointer: `withUTF8Buffer` was a call and a closure per piece, and the
    /// writer appends a literal for every key, comma and brace.
    @inline(__always)
    func append(literal text: StaticString) {
        guard text.hasPointerRepresentation else {
            text.withUTF8Buffer { append($0) }
            return
        }
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A compact member's key: the comma before it unless it is the first, the quoted name and the colon, with one
    /// reservation (the name is a coding key: plain ASCII, written as it is).
    func append(key name: StaticString, first: Bool) {
        guard name.hasPointerRepresentation else {
            if !first { append(UInt8(ascii: ",")) }
            append(UInt8(ascii: "\""))
            append(literal: name)
            append(literal: "\":")
            return
        }
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        var cursor = storage + count
        if !first {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        cursor.pointee = UInt8(ascii: "\"")
        Self.copy(name.utf8Start, to: cursor + 1, count: length)
        cursor += length + 1
        cursor[0] = UInt8(ascii: "\"")
        cursor[1] = UInt8(ascii: ":")
        count = cursor + 2 - storage
        checkWithinReservation()
    }

    /// A comma when asked, a line break and `indent` spaces, with one reservation: what a pretty document writes
    /// before each element of an array and before a closing bracket or brace.
    func append(lineBreakIndentedBy indent: Int, comma: Bool) {
        guard indent >= 0 else { return }
        // Reserved and advanced by the same count: a piece left out shows in the output instead of running past the
        // buffer.
        let total = (comma ? 1 : 0) + 1 + indent
        reserve(total)
        var cursor = storage + count
        if comma {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        cursor.pointee = UInt8(ascii: "\n")
        (cursor + 1).initialize(repeating: UInt8(ascii: " "), count: indent)
        count += total
        checkWithinReservation()
    }

    /// A pretty member's key: the comma and line break before it (a line break alone for the first), `indent`
    /// spaces, the quoted name and ` : `, with one reservation instead of five appends (a report writes a key for
    /// every member).
    func append(prettyKey name: StaticString, first: Bool, indent: Int) {
        guard name.hasPointerRepresentation, indent >= 0 else {
            append(literal: first ? "\n" : ",\n")
            append(repeating: UInt8(ascii: " "), count: indent)
            append(UInt8(ascii: "\""))
            append(literal: name)
            append(literal: "\" : ")
            return
        }
        let length = name.utf8CodeUnitCount
        // Comma, line break, indent, quote, name, quote, space, colon, space: reserved and advanced by the same count.
        let total = (first ? 0 : 1) + 1 + indent + 1 + length + 4
        reserve(total)
        var cursor = storage + count
        if !first {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        cursor.pointee = UInt8(ascii: "\n")
        cursor += 1
        cursor.initialize(repeating: UInt8(ascii: " "), count: indent)
        cursor += indent
        cursor.pointee = UInt8(ascii: "\"")
        Self.copy(name.utf8Start, to: cursor + 1, count: length)
        cursor += length + 1
        cursor[0] = UInt8(ascii: "\"")
        cursor[1] = UInt8(ascii: " ")
        cursor[2] = UInt8(ascii: ":")
        cursor[3] = UInt8(ascii: " ")
        count += total
        checkWithinReservation()
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// `value` in decimal, as `String(value)` writes it, without making the `String`.
    func append(decimal value: UInt64, negative: Bool = false) {
        var length = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            length += 1
        }
        let width = negative ? length + 1 : length
        reserve(width)
        var cursor = storage + count + width
        var rest = value
        repeat {
            cursor -= 1
            cursor.pointee = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        if negative { storage[count] = UInt8(ascii: "-") }
        count += width
    }

    /// `value` in decimal padded with zeros to `width` digits (the digits after a decimal point).
    func append(decimal value: UInt64, width: Int) {
        var length = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            length += 1
        }
        if width > length { append(repeating: UInt8(ascii: "0"), count: width - length) }
        append(decimal: value)
    }

    func append(decimal value: Int64) {
        append(decimal: value.magnitude, negative: value < 0)
    }

    /// `value` as the quoted JSON string of its ``HexValue/description`` (`"0x1f"`), without making the `String`.
    func append(hexString value: UInt64) {
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        let width = digits + 4
        reserve(width)
        let start = storage + count
        start[0] = UInt8(ascii: "\"")
        start[1] = UInt8(ascii: "0")
        start[2] = UInt8(ascii: "x")
        start[width - 1] = UInt8(ascii: "\"")
        var cursor = start + width - 1
        var rest = value
        for _ in 0..<digits {
            cursor -= 1
            let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
            cursor.pointee = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            rest >>= 4
        }
        count += width
    }

    /// `count` copies of `byte`.
    func append(repeating byte: UInt8, count extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        (storage + count).initialize(repeating: byte, count: extra)
        count += extra
    }

    /// Calls `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage, count: count))
    }

    /// The bytes written, as text.
    var string: String {
        String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self)
    }
}
