import APMInspectCore
import HTTPCaptureParsing

/// The bytes of one file and what sniffing them found, shared by the families the inspector asks in turn.
///
/// A class so that the `.ips` container and the HTTP sniff are computed once, by the first family that needs them,
/// not once per family asked. It lives for one ``ReportInspector/inspect(bytes:path:)`` call on one thread.
public final class InspectionInput {
    /// The bytes of the file (after a UTF-16 file was converted to UTF-8).
    public let bytes: [UInt8]
    /// The path as the user gave it: what the envelope names.
    public let path: String
    /// What the content sniffer says the bytes are.
    public let format: ContentFormat

    private var cachedContainer: IPSContainer?
    private var cachedHTTPKind: FileKind??

    /// The input of `bytes` read from `path`; the .ips container and HTTP sniff are computed when first asked.
    public init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
        self.format = ContentSniffer.format(of: bytes)
    }

    /// The bytes as an `.ips` container (header line and body), or as a header-less body.
    public var container: IPSContainer {
        if let cachedContainer { return cachedContainer }
        let container = IPSContainer(bytes: bytes)
        cachedContainer = container
        return container
    }

    /// The kind of HTTP capture the bytes are, or nil.
    public var httpKind: FileKind? {
        if let cachedHTTPKind { return cachedHTTPKind }
        let kind = HTTPCaptureReader.recognise(bytes, format: format)
        cachedHTTPKind = .some(kind)
        return kind
    }

    /// JSON, or an `.ips` file (a header line, then JSON or text).
    var isJSONOrIPS: Bool { format == .json || format == .ips }
}
