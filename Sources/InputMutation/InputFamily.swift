import APMInspectCore

/// The families of input the engine knows the structure of; decided from content by `ContentSniffer`, and by
/// `MachOMagic` for Mach-O, which the sniffer leaves as binary data.
public enum InputFamily: String, Sendable, CaseIterable, Codable, Hashable {
    /// JSON: `.ips` (header line and body), HAR, Charles JSON sessions, MetricKit and KSCrash payloads.
    case json
    /// Legacy text crash reports: lines, `Key: Value` fields and frame columns.
    case crashText
    /// Other text, XML included (Charles XML sessions).
    case text
    case pcap
    case pcapng
    case sqlite
    case tar
    case gzip
    case zlib
    /// A Mach-O binary or dSYM companion file, thin or fat: header, load commands, symbols and DWARF unit headers.
    case machO
    /// A bare `.debug_line` section, as `FuzzDWARFLine` takes it: never sniffed, only given.
    case dwarfLine
    /// Anything else, mutated byte by byte only.
    case binary

    /// The family of a sniffed content format.
    public init(format: ContentFormat) {
        switch format {
        case .ips, .json: self = .json
        case .crashText: self = .crashText
        case .text, .xml: self = .text
        case .pcap: self = .pcap
        case .pcapng: self = .pcapng
        case .sqlite: self = .sqlite
        case .tar: self = .tar
        case .gzip: self = .gzip
        case .zlib: self = .zlib
        case .binary, .empty: self = .binary
        }
    }

    /// The family of `bytes`, from their content.
    public static func sniff(_ bytes: [UInt8]) -> InputFamily {
        // First: a magic at offset 0 says more than the tar check's `ustar` at offset 257.
        if MachOMagic(bytes)?.isPlausible == true { return .machO }
        return InputFamily(format: ContentSniffer.format(of: bytes))
    }
}
