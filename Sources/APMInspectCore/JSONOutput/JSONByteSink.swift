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
    @exclusivity(unchecked) private var storage: OutputBytes
    /// Bytes handed to `drain` so far.
    private(set) var drained = 0
    /// Where full buffers go; nil keeps every byte (for a `String` of the whole document).
    private let drain: ((BorrowedBytes) -> Void)?
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
        drain: ((BorrowedBytes) -> Void)? = nil
    ) {
        self.storage = OutputBytes(capacity: capacity)
        self.chunk = max(chunk, 16)
        self.holdLimit = max(holdLimit, 0)
        self.limit = max(limit, 0)
        self.drain = drain
    }

    /// Bytes held now (not yet drained).
    var count: Int { storage.count }

    /// Records why the document failed (the first reason only) and drops what is held.
    func fail(_ error: any Error) {
        if failure == nil { failure = error }
        storage.removeAll()
    }

    /// Throws the recorded failure, or ``JSONStreamContext/TooLarge`` when the document passed its limit.
    func checkWritten() throws {
        if let failure { throw failure }
        if total > limit { throw JSONStreamContext.TooLarge() }
    }

    /// Bytes written so far, drained or held.
    var total: Int { drained + storage.count }

    /// Hands every held byte to `drain` (nothing without one).
    func flush() {
        guard let drain, storage.count > 0, failure == nil else { return }
        drain(storage.bytes)
        drained += storage.count
        storage.removeAll()
    }

    deinit { storage.deallocate() }

    /// Applies the sink's policy before the storage would grow.
    ///
    /// Past the limit the document fails and its bytes are dropped; with a drain, past the hold, the held bytes go
    /// out instead. The storage's own appends then find their room (or grow it: a piece larger than the buffer).
    @inline(__always)
    private func reserve(_ extra: Int) {
        if extra > storage.capacity - storage.count { makeRoom(extra) }
    }

    private func makeRoom(_ extra: Int) {
        if failure == nil, total + extra > limit { fail(JSONStreamContext.TooLarge()) }
        if failure != nil {
            storage.removeAll()
        } else if drain != nil, total >= holdLimit {
            flush()
            // The hold may have grown the buffer to megabytes: back to a chunk that stays in cache.
            if storage.capacity > 4 * chunk, extra <= chunk { storage.resize(capacity: chunk) }
        }
        storage.reserve(extra)
    }

    func append(_ byte: UInt8) {
        reserve(1)
        storage.append(byte)
    }

    func append(_ bytes: BorrowedBytes) {
        reserve(bytes.count)
        storage.append(bytes)
    }

    /// `bytes` between quotes: a string that needs no escaping, with one reservation.
    func append(quoted bytes: BorrowedBytes) {
        reserve(bytes.count + 2)
        storage.append(UInt8(ascii: "\""))
        storage.append(bytes)
        storage.append(UInt8(ascii: "\""))
    }

    /// A literal's bytes.
    @inline(__always)
    func append(literal text: StaticString) {
        reserve(Self.length(of: text))
        storage.append(text)
    }

    /// The UTF-8 length of `text`, which a literal of one scalar holds without a pointer (`utf8CodeUnitCount`
    /// would trap on it).
    @inline(__always)
    private static func length(of text: StaticString) -> Int {
        text.hasPointerRepresentation ? text.utf8CodeUnitCount : text.withUTF8Buffer { $0.count }
    }

    /// A compact member's key: the comma before it unless it is the first, the quoted name and the colon, with one
    /// reservation (the name is a coding key: plain ASCII, written as it is).
    func append(key name: StaticString, first: Bool) {
        reserve((first ? 0 : 1) + Self.length(of: name) + 3)
        if !first { storage.append(UInt8(ascii: ",")) }
        storage.append(UInt8(ascii: "\""))
        storage.append(name)
        storage.append("\":")
    }

    /// A comma when asked, a line break and `indent` spaces, with one reservation: what a pretty document writes
    /// before each element of an array and before a closing bracket or brace.
    func append(lineBreakIndentedBy indent: Int, comma: Bool) {
        guard indent >= 0 else { return }
        reserve((comma ? 1 : 0) + 1 + indent)
        if comma { storage.append(UInt8(ascii: ",")) }
        storage.append(UInt8(ascii: "\n"))
        storage.append(repeating: UInt8(ascii: " "), count: indent)
    }

    /// A pretty member's key: the comma and line break before it (a line break alone for the first), `indent`
    /// spaces, the quoted name and ` : `, with one reservation instead of five appends (a report writes a key for
    /// every member).
    func append(prettyKey name: StaticString, first: Bool, indent: Int) {
        let indent = max(0, indent)
        // Comma, line break, indent, quote, name, quote, space, colon, space.
        reserve((first ? 0 : 1) + 1 + indent + 1 + Self.length(of: name) + 4)
        if !first { storage.append(UInt8(ascii: ",")) }
        storage.append(UInt8(ascii: "\n"))
        storage.append(repeating: UInt8(ascii: " "), count: indent)
        storage.append(UInt8(ascii: "\""))
        storage.append(name)
        storage.append("\" : ")
    }

    func append(_ text: String) {
        var text = text
        text.withBorrowedUTF8 { append($0) }
    }

    /// `value` in decimal, as `String(value)` writes it, without making the `String`.
    func append(decimal value: UInt64, negative: Bool = false) {
        // Reserved exactly: a document may end one byte short of its limit.
        let digits = OutputBytes.decimalLength(of: value)
        reserve(digits + (negative ? 1 : 0))
        storage.append(decimal: value, negative: negative, digits: digits)
    }

    /// `value` in decimal padded with zeros to `width` digits (the digits after a decimal point).
    func append(decimal value: UInt64, width: Int) {
        let length = OutputBytes.decimalLength(of: value)
        if width > length { append(repeating: UInt8(ascii: "0"), count: width - length) }
        append(decimal: value)
    }

    func append(decimal value: Int64) {
        append(decimal: value.magnitude, negative: value < 0)
    }

    /// `value` as the quoted JSON string of its ``HexValue/description`` (`"0x1f"`), without making the `String`.
    func append(hexString value: UInt64) {
        reserve(OutputBytes.hexadecimalLength(of: value) + 4)
        storage.append("\"0x")
        storage.append(hexadecimal: value)
        storage.append(UInt8(ascii: "\""))
    }

    /// `count` copies of `byte`.
    func append(repeating byte: UInt8, count extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        storage.append(repeating: byte, count: extra)
    }

    /// Calls `body` with the bytes written so far.
    func withBytes<Result>(_ body: (BorrowedBytes) throws -> Result) rethrows -> Result {
        try body(storage.bytes)
    }

    /// The bytes written, as text.
    var string: String { storage.string }
}
