/// What the first bytes of a file say it is, before any parser runs.
public enum ContentFormat: String, Sendable, Equatable, Hashable, Codable {
    /// A one-line JSON header followed by a body (an `.ips` file).
    case ips
    /// JSON (or JSON-like pasted text) without an `.ips` header.
    case json
    /// A legacy text crash report (`Incident Identifier:`, `Process:`, `Exception Type:` …).
    case crashText
    case sqlite
    case gzip
    case zlib
    case pcap
    case pcapng
    case xml
    case tar
    /// Other text.
    case text
    /// Other binary data.
    case binary
    /// An empty file.
    case empty
}
