/// Encodes `Encodable` values as JSON with keys sorted by their UTF-8 bytes: the documented output of
/// `apm-inspect`.
///
/// Byte for byte what Foundation's `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes` (with
/// `pretty`, its `.prettyPrinted` layout too), in about half the time on crash reports: a lean tree instead of
/// `Any`, coding paths rebuilt only when an error needs one, and a plain byte buffer.
public struct SortedJSONEncoder: Sendable {
    /// Foundation's pretty layout (two-space indent, `"key" : value`) instead of one line.
    public var pretty: Bool

    public init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// The JSON text of `value`.
    ///
    /// Non-finite numbers are written as `null` (JSON has no form for them), where `JSONEncoder` throws.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that encodes nothing, and whatever the value's own
    ///   `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> String {
        try sink(value, depth: 0).string
    }

    /// The JSON text of `value` as an element `depth` levels deep in a pretty document: its inner lines are
    /// indented for that depth (its first line is not), so documents encoded one by one can be joined into the
    /// array that encoding them together would write.
    ///
    /// - Throws: as ``encode(_:)``.
    public func encode(_ value: some Encodable, depth: Int) throws -> String {
        try sink(value, depth: max(0, depth)).string
    }

    /// Hands the JSON bytes of `value`, followed by `suffix`, to `body` without making a `String` of them.
    ///
    /// Large documents are written out without a second copy. `depth` as in ``encode(_:depth:)``; `body` is called
    /// only once the whole value is encoded, so nothing of a value that throws is handed out.
    ///
    /// - Throws: as ``encode(_:)``.
    public func write(
        _ value: some Encodable,
        suffix: StaticString = "",
        depth: Int = 0,
        to body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws {
        let output = try sink(value, depth: max(0, depth))
        output.append(literal: suffix)
        output.withBytes(body)
    }

    private func sink(_ value: some Encodable, depth: Int) throws -> JSONByteSink {
        let encoder = JSONTreeEncoder()
        try value.encode(to: encoder)
        guard let tree = encoder.result else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level value did not encode any values.")
            )
        }
        let output = JSONByteSink()
        JSONTree.write(tree, into: output, pretty: pretty, depth: depth)
        return output
    }
}
