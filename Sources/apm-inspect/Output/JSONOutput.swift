import APMInspectCore

/// Encodes output documents: pretty for `json`, one line per document for `ndjson`; keys sorted for stable diffs.
enum JSONOutput {
    static func encode(_ value: some Encodable, pretty: Bool) throws -> String {
        try SortedJSONEncoder(pretty: pretty).encode(value)
    }

    /// Writes `value` and a newline to standard output straight from the encoder's buffer (no `String` copy of
    /// what can be hundreds of megabytes for a large capture).
    static func print(_ value: some Encodable, pretty: Bool) throws {
        try SortedJSONEncoder(pretty: pretty).write(value, suffix: "\n") { Console.out(bytes: $0) }
    }
}
