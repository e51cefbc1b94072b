import APMInspectCore

/// An HTTP traffic capture (HAR, Charles session or packet capture) turned into transactions and health figures.
public struct HTTPCapture: Sendable, Equatable, Codable {
    /// The container the capture came in.
    public enum Source: String, Sendable, Equatable, Codable {
        case har
        case charlesJSON
        case charlesXML
        case pcap
        case pcapng
    }

    /// The tool or format the capture came from.
    public var source: Source
    /// `zlib` or `gzip` when the file was compressed (`.zhar`, `.har.gz`), nil otherwise.
    public var compression: String?
    /// HAR `log.version`, or the container version for packet captures.
    public var version: String?
    /// The exporter (`log.creator` in HAR), as `name version`.
    public var creator: String?
    /// The browser or app that recorded it, when the capture says.
    public var browser: String?
    /// HAR pages, kept verbatim.
    public var pages: [JSONValue]
    /// Requests sorted by start time.
    public var transactions: [HTTPTransaction]
    /// Counts, rates and timing percentiles over the transactions.
    public var summary: HTTPSummary
    /// What the packets showed besides HTTP (nil for HAR and Charles).
    public var packets: PacketAnalysis?
    /// Top-level fields the model does not know, verbatim (`log.comment`, `log._…`).
    public var extensions: [String: JSONValue]

    /// A capture from its parts, for a family or a test that builds one.
    package init(
        source: Source,
        compression: String? = nil,
        version: String? = nil,
        creator: String? = nil,
        browser: String? = nil,
        pages: [JSONValue] = [],
        transactions: [HTTPTransaction] = [],
        summary: HTTPSummary = HTTPSummary(),
        packets: PacketAnalysis? = nil,
        extensions: [String: JSONValue] = [:]
    ) {
        self.source = source
        self.compression = compression
        self.version = version
        self.creator = creator
        self.browser = browser
        self.pages = pages
        self.transactions = transactions
        self.summary = summary
        self.packets = packets
        self.extensions = extensions
    }

    /// The report kind of this capture in the output envelope.
    package var fileKind: FileKind {
        switch source {
        case .har: .httpArchive
        case .charlesJSON, .charlesXML: .charlesSession
        case .pcap, .pcapng: .packetCapture
        }
    }
}
