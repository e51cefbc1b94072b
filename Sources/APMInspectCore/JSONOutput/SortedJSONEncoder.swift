import ByteAccess

/// Encodes `Encodable` values as JSON with keys sorted by their UTF-8 bytes: the documented output of
/// `apm-inspect`.
///
/// Byte for byte what Foundation's `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes` (with
/// `pretty`, its `.prettyPrinted` layout too), written straight from the model into the output
/// (`JSONStreamEncoder`): no tree and no second copy of a document, so a report of any size is written in the
/// memory of its model plus a buffer.
public struct SortedJSONEncoder: Sendable {
    /// Foundation's pretty layout (two-space indent, `"key" : value`) instead of one line.
    public var pretty: Bool

    /// An encoder of compact JSON (`--format ndjson`), or indented JSON when `pretty` (`--format json`).
    public init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// A value failed to encode after part of it was handed out (`write(_:suffix:depth:holdingUpTo:to:)`): the
    /// document handed out so far is cut short.
    package struct Interrupted: Error, CustomStringConvertible {
        /// What the value's encoding threw.
        package var underlying: any Error
        /// Bytes of the document already handed out.
        package var bytesHandedOut: Int

        package var description: String { "\(underlying)" }
    }

    /// The JSON text of `value`.
    ///
    /// Non-finite numbers are written as `null` (JSON has no form for them), where `JSONEncoder` throws.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that encodes nothing, and whatever the value's own
    ///   `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> String {
        try encode(value, depth: 0)
    }

    /// The JSON text of `value` as an element `depth` levels deep in a pretty document: its inner lines are
    /// indented for that depth (its first line is not), so documents encoded one by one can be joined into the
    /// array that encoding them together would write.
    ///
    /// - Throws: as ``encode(_:)``.
    public func encode(_ value: some Encodable, depth: Int) throws -> String {
        let sink = JSONByteSink()
        try encode(value, depth: max(0, depth), into: sink)
        return sink.string
    }

    /// The JSON text of `value`, or nil as soon as it passes `limit` bytes (then to be written with
    /// `write(_:suffix:depth:holdingUpTo:to:)`): small documents can be encoded in parallel and written whole, large
    /// ones streamed without being held.
    ///
    /// - Throws: as ``encode(_:)``.
    public func encode(_ value: some Encodable, upTo limit: Int) throws -> String? {
        let sink = JSONByteSink(limit: limit)
        do {
            try encode(value, depth: 0, into: sink)
        } catch is JSONStreamContext.TooLarge {
            return nil
        }
        return sink.total > limit ? nil : sink.string
    }

    /// Calls `body` with the JSON bytes of `value` followed by `suffix`, or with nil when the document passes
    /// `limit` bytes (then to be written with `write(_:suffix:depth:holdingUpTo:to:)`).
    ///
    /// ``encode(_:upTo:)`` without the `String`: `scan` encodes each envelope on its worker and hands the bytes to
    /// the output as they are, where making a `String` and joining it with its line break copied the document three
    /// times.
    ///
    /// - Throws: as ``encode(_:)``, and what `body` throws.
    package func withEncoded<Result>(
        _ value: some Encodable,
        suffix: StaticString = "",
        upTo limit: Int,
        _ body: (BorrowedBytes?) throws -> Result
    ) throws -> Result {
        // Room for the suffix past the limit, which applies to the document alone.
        let (room, overflow) = limit.addingReportingOverflow(suffix.utf8CodeUnitCount)
        let sink = JSONByteSink(limit: overflow ? Int.max : room)
        do {
            try encode(value, depth: 0, into: sink)
        } catch is JSONStreamContext.TooLarge {
            return try body(nil)
        }
        guard sink.total <= limit else { return try body(nil) }
        sink.append(literal: suffix)
        return try sink.withBytes { try body($0) }
    }

    /// Hands the JSON bytes of `value`, followed by `suffix`, to `body` in chunks while encoding.
    ///
    /// Nothing is handed out before `holdingUpTo` bytes are encoded (or the whole value, when it is smaller), so a
    /// value that fails within that much costs nothing already written; past it, memory stays at a buffer of
    /// 64 KiB whatever the size of the document. `depth` as in ``encode(_:depth:)``.
    ///
    /// - Throws: as ``encode(_:)`` when nothing was handed out yet; `Interrupted` when part of the document was.
    package func write(
        _ value: some Encodable,
        suffix: StaticString = "",
        depth: Int = 0,
        holdingUpTo holdLimit: Int = Int.max,
        to body: (BorrowedBytes) -> Void
    ) throws {
        try write(value, suffix: suffix, depth: depth, holdingUpTo: holdLimit, chunk: 65_536, to: body)
    }

    /// `write(_:suffix:depth:holdingUpTo:to:)` with the buffer size chosen (tests use tiny ones).
    func write(
        _ value: some Encodable,
        suffix: StaticString = "",
        depth: Int = 0,
        holdingUpTo holdLimit: Int,
        chunk: Int,
        to body: (BorrowedBytes) -> Void
    ) throws {
        try withoutActuallyEscaping(body) { body in
            let sink = JSONByteSink(capacity: chunk, chunk: chunk, holdLimit: holdLimit, drain: body)
            do {
                try encode(value, depth: max(0, depth), into: sink)
            } catch {
                if sink.drained > 0 { throw Interrupted(underlying: error, bytesHandedOut: sink.drained) }
                throw error
            }
            sink.append(literal: suffix)
            sink.flush()
        }
    }

    /// ``encode(_:depth:into:)`` for a value known to write itself, without the run-time cast.
    func encode(direct value: some JSONDirectEncodable, depth: Int, into sink: JSONByteSink) throws {
        let context = JSONStreamContext(sink: sink, pretty: pretty)
        defer { context.close() }
        JSONObjectWriter.write(value, context: context, depth: depth)
        try sink.checkWritten()
    }

    /// Writes `value` into `sink` at `depth`: each document, and each element of a ``JSONArraySpool``.
    func encode(_ value: some Encodable, depth: Int, into sink: JSONByteSink) throws {
        if let direct = value as? any JSONDirectEncodable {
            try encode(direct: direct, depth: depth, into: sink)
            return
        }
        let context = JSONStreamContext(sink: sink, pretty: pretty)
        defer { context.close() }
        let root = JSONStreamEncoder(context: context, parent: nil, keyName: nil, index: -1, depth: depth)
        try value.encode(to: root)
        if case .empty = root.state {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level value did not encode any values.")
            )
        }
        try root.finish()
        try sink.checkWritten()
    }

    /// The JSON text of `value` by way of a whole tree of its members: the writer before streaming, kept as the
    /// reference that the streaming writer and every `JSONDirectEncodable` conformance are tested against.
    ///
    /// Slower and holding the whole document; for checks, not for output.
    package func encodeThroughTree(_ value: some Encodable, depth: Int = 0) throws -> String {
        let encoder = JSONTreeEncoder()
        try value.encode(to: encoder)
        guard let tree = encoder.result else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level value did not encode any values.")
            )
        }
        let output = JSONByteSink()
        JSONTree.write(tree, into: output, pretty: pretty, depth: max(0, depth))
        return output.string
    }
}
