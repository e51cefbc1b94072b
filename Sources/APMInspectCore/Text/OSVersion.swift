/// An OS version string as Apple writes it, split into its parts: `iPhone OS 13.3.1 (17D50)`.
///
/// Also reads `macOS 14.5 (23F79)`, `Watch OS 7.0.1 (18R395)`, `Mac OS X 10.15.7 (19H2)`, `iOS 18.0 (22A3354)`
/// and a bare `13.3.1 (17D50)`. A build that ends in a lowercase letter (`22A5350a`) is a beta or seed.
public struct OSVersion: Sendable, Equatable, Hashable, Codable {
    /// The platform's name as written (`iPhone OS`, `macOS`, `Watch OS`), empty when absent.
    public var name: String
    /// The dotted version (`13.3.1`), empty when absent.
    public var version: String
    /// The build (`17D50`), empty when absent.
    public var build: String
    /// The whole string as written.
    public var raw: String

    @usableFromInline
    package init(name: String, version: String, build: String, raw: String) {
        self.name = name
        self.version = version
        self.build = build
        self.raw = raw
    }

    /// Splits `raw`; never fails (unparseable text ends up whole in ``name``).
    @usableFromInline
    package init(parsing raw: String) {
        let text = raw.trimmingASCIIWhitespace()
        if let parts = Self.asciiParts(of: text) {
            self.init(name: parts.name, version: parts.version, build: parts.build, raw: raw)
            return
        }
        var head = text
        var build = ""
        if let open = text.lastIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            build = String(text[text.index(after: open)..<close]).trimmingASCIIWhitespace()
            head = String(text[..<open]).trimmingASCIIWhitespace()
        }
        var name = head
        var version = ""
        if let lastSpace = head.lastIndex(of: " ") {
            let candidate = String(head[head.index(after: lastSpace)...])
            if candidate.first?.isNumber == true {
                version = candidate
                name = String(head[..<lastSpace]).trimmingASCIIWhitespace()
            }
        } else if head.first?.isNumber == true {
            version = head
            name = ""
        }
        self.init(name: name, version: version, build: build, raw: raw)
    }

    /// The parts of plain ASCII `text` (already trimmed), split on its bytes; nil for other text.
    ///
    /// In ASCII every byte is one Character but CR LF, which is neither a parenthesis, a space nor a digit, so the
    /// splits are those of the Character-level reading in ``init(parsing:)``, at a fraction of the cost (that
    /// reading was a tenth of a small crash report's analysis).
    private static func asciiParts(of text: String) -> (name: String, version: String, build: String)? {
        var text = text
        return text.withUTF8 { bytes -> (name: String, version: String, build: String)? in
            guard UTF8Search.isPlainASCII(bytes) else { return nil }
            func string(_ range: Range<Int>) -> String {
                String(decoding: bytes[range], as: UTF8.self)
            }
            func trimmed(_ range: Range<Int>) -> Range<Int> {
                var low = range.lowerBound
                var high = range.upperBound
                while low < high, String.isASCIIWhitespace(bytes[low]) { low += 1 }
                while high > low, String.isASCIIWhitespace(bytes[high - 1]) { high -= 1 }
                return low..<high
            }
            func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
            var head = 0..<bytes.count
            var build = ""
            if let open = bytes.lastIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: UInt8(ascii: ")")),
                open < close
            {
                build = string(trimmed(open + 1..<close))
                head = trimmed(0..<open)
            }
            var name = head
            var version = ""
            if let lastSpace = bytes[head].lastIndex(of: UInt8(ascii: " ")) {
                if lastSpace + 1 < head.upperBound, isDigit(bytes[lastSpace + 1]) {
                    version = string(lastSpace + 1..<head.upperBound)
                    name = trimmed(head.lowerBound..<lastSpace)
                }
            } else if !head.isEmpty, isDigit(bytes[head.lowerBound]) {
                version = string(head)
                name = head.lowerBound..<head.lowerBound
            }
            return (string(name), version, build)
        }
    }

    /// The major version number (`13` for `13.3.1`).
    @usableFromInline
    package var major: Int? { version.split(separator: ".").first.flatMap { Int($0) } }

    /// True for beta and seed builds, whose build number ends in a lowercase letter (`21A5291j`).
    @usableFromInline
    package var isBeta: Bool { build.last.map { $0.isLowercase } ?? false }

    /// The platform family the name stands for.
    @usableFromInline
    package var platform: Platform { Platform(osName: name) }

    /// Apple platforms, as far as a report's OS name tells.
    public enum Platform: String, Sendable, Equatable, Hashable, Codable {
        case iOS
        case macOS
        case watchOS
        case tvOS
        case visionOS
        case unknown

        init(osName: String) {
            let lower = osName.lowercased()
            if lower.contains(ascii: "iphone") || lower == "ios" || lower.contains(ascii: "ipados") {
                self = .iOS
            } else if lower.contains(ascii: "mac") || lower.contains(ascii: "os x") {
                self = .macOS
            } else if lower.contains(ascii: "watch") {
                self = .watchOS
            } else if lower.contains(ascii: "tv") {
                self = .tvOS
            } else if lower.contains(ascii: "vision") || lower.contains(ascii: "xros") {
                self = .visionOS
            } else {
                self = .unknown
            }
        }
    }
}
