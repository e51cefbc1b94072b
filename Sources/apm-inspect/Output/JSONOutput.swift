import APMInspectCore

/// Encodes output documents: pretty for `json`, one line per document for `ndjson`; keys sorted for stable diffs.
enum JSONOutput {
    static func encode(_ value: some Encodable, pretty: Bool) throws -> String {
        try SortedJSONEncoder(pretty: pretty).encode(value)
    }
}
