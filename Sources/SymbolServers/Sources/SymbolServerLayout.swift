/// Where a symbol server keeps the debug file of one UUID, below its base.
package enum SymbolServerLayout: String, Sendable, Equatable {
    /// Sentry's unified layout: `<first 2 hex>/<other 30 hex>/debuginfo`, lower case, no dashes.
    case unified
    /// lldb's File Mapped UUID Directories (the layout dsymForUUID tools serve): the first 20 hex digits in
    /// folders of four, then the last 12 as the file, upper case, e.g. `2351/6BE4/29BE/350C/91C9/F36E7999F0F1`.
    /// Source: lldb's documentation, docs/use/symbols.rst, "File Mapped UUID Directories".
    case lldb

    /// The key of `uuid` (32 hex digits, dashes allowed) below the base; nil when it is not such a UUID, so that
    /// nothing hostile reaches a URL.
    package func key(forUUID uuid: String) -> String? {
        let hex = uuid.filter { $0 != "-" }
        guard hex.utf8.count == 32, hex.utf8.allSatisfy({ Self.isHexDigit($0) }) else { return nil }
        switch self {
        case .unified:
            let lower = hex.lowercased()
            return "\(lower.prefix(2))/\(lower.dropFirst(2))/debuginfo"
        case .lldb:
            let upper = Array(hex.uppercased())
            let folders = stride(from: 0, to: 20, by: 4).map { String(upper[$0..<$0 + 4]) }
            return (folders + [String(upper[20...])]).joined(separator: "/")
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
