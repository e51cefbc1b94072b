import APMInspectCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes a copy of a report that is safe to share: the identifiers of the device, the user, the install and the
/// report replaced by stand-ins of the same shape, everything else byte for byte as it was.
///
/// The copy is rewritten as text, not parsed and written again, so that a damaged report stays as damaged (the
/// damage may be what the user shares it for) and the parser reads the copy as it read the original; each copy is
/// then read again and refused when it is not the same kind of report with the same crash signature. Binary image
/// UUIDs are never touched: symbolication needs them.
package struct ReportAnonymizer {
    /// The stand-ins of the run, shared by every file it anonymizes.
    package private(set) var table: StandInTable
    package let inspector: ReportInspector
    private let reportRules = AnonymizationRule.reportRules()
    private let addressRules = AnonymizationRule.addressRules()

    package init(salt: [UInt8], inspector: ReportInspector = ReportInspector()) {
        table = StandInTable(salt: salt)
        self.inspector = inspector
    }

    /// Anonymizes the report `bytes` (its path only names it in findings).
    package mutating func anonymize(_ bytes: [UInt8], path: String) -> AnonymizedReport {
        var bytes = bytes
        var decompressed = false
        let isGzip = bytes.count > 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
        // A zlib header (`.zhar`): CMF 0x78 and a check value; text that happens to start so stays text.
        let isZlib = bytes.count > 2 && bytes[0] == 0x78 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
        if isGzip || isZlib {
            // A compressed HAR (`.har.gz`, `.zhar`): the copy is the plain text, since a copy need not save space.
            if let inflated = try? Inflate.decompress(bytes, maxOutputBytes: 1 << 30), !inflated.isTruncated {
                bytes = inflated.bytes
                decompressed = true
            } else if isGzip {
                return .refused(.unknown, "a gzip stream that does not decompress whole; nothing was written")
            }
        }
        let original = inspector.inspect(bytes: bytes, path: path)
        if let refusal = Self.refusal(of: original.kind, bytes: bytes) {
            return .refused(original.kind, refusal)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            return .refused(original.kind, "not UTF-8 text (a UTF-16 or binary file): nothing was written")
        }
        var counts: [AnonymizedCategory: Int] = [:]
        var rewritten = text
        let isHTTP = original.kind == .httpArchive || original.kind == .charlesSession
        if isHTTP { rewritten = replaceSecrets(in: bytes, counts: &counts) }
        rewritten = replace(in: rewritten, rules: isHTTP ? reportRules + addressRules : reportRules, counts: &counts)
        let copy = Array(rewritten.utf8)
        let reread = inspector.inspect(bytes: copy, path: path)
        if let mismatch = Self.mismatch(original, reread) {
            return AnonymizedReport(
                kind: original.kind,
                bytes: nil,
                counts: counts,
                decompressed: decompressed,
                diagnostics: [Diagnostic(.error, .anonymizeChangedReport, mismatch + "; the copy was not written")]
            )
        }
        return AnonymizedReport(
            kind: original.kind,
            bytes: copy,
            counts: counts,
            decompressed: decompressed,
            diagnostics: []
        )
    }

    /// Why a file of `kind` is not rewritten: a binary format whose values cannot be replaced in place safely.
    static func refusal(of kind: FileKind, bytes: [UInt8]) -> String? {
        switch kind {
        case .packetCapture:
            return "a packet capture is not rewritten (addresses sit in binary headers under checksums); "
                + "nothing was written"
        case .powerLog:
            return "a PowerLog database is not rewritten; nothing was written"
        case .archive:
            return "an archive inside an archive is not opened; nothing was written"
        case .unknown:
            return "not a report this build reads, so what it holds is not known; nothing was written"
        case .charlesSession where bytes.first(where: { $0 > 0x20 }) == UInt8(ascii: "<"):
            return "a Charles XML session (.chlsx) is not rewritten (export it as .chlsj); nothing was written"
        default:
            return nil
        }
    }

    /// What differs between the original's reading and the copy's that should not; nil when they agree.
    static func mismatch(_ original: Inspection, _ copy: Inspection) -> String? {
        if original.kind != copy.kind {
            return "the copy reads as \(copy.kind.rawValue), not \(original.kind.rawValue)"
        }
        if (original.failure == nil) != (copy.failure == nil) {
            return "the copy " + (copy.failure == nil ? "reads though the original did not" : "no longer reads")
        }
        if signature(of: original) != signature(of: copy) {
            return "the copy's crash signature differs from the original's"
        }
        return nil
    }

    /// What must survive anonymization of each kind: the crash signature, or the count of processes or requests.
    static func signature(of inspection: Inspection) -> String? {
        switch inspection.report {
        case .crash(let report)?, .watchdog(let report, _)?: report.signature
        case .jetsam(let event)?: "\(event.processes.count) processes"
        case .http(let capture)?: "\(capture.transactions.count) requests"
        default: nil
        }
    }

    /// The capture with its cookie and credential values replaced.
    private mutating func replaceSecrets(in bytes: [UInt8], counts: inout [AnonymizedCategory: Int]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var cursor = 0
        for secret in HTTPSecretScanner.secrets(in: bytes) where secret.range.lowerBound >= cursor {
            let value = String(decoding: bytes[secret.range], as: UTF8.self)
            let standIn = table.standIn(for: value, in: .httpSecret) { keyed in
                Self.secretStandIn(value, header: secret.header, &keyed)
            }
            out += bytes[cursor..<secret.range.lowerBound]
            out += Array(standIn.utf8)
            cursor = secret.range.upperBound
            counts[.httpSecret, default: 0] += 1
        }
        out += bytes[min(cursor, bytes.count)...]
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with every value the rules match replaced by its stand-in.
    private mutating func replace(
        in text: String,
        rules: [AnonymizationRule],
        counts: inout [AnonymizedCategory: Int]
    ) -> String {
        var found: [(range: Range<String.Index>, category: AnonymizedCategory)] = []
        let whole = NSRange(text.startIndex..., in: text)
        for rule in rules {
            for match in rule.expression.matches(in: text, range: whole) where match.numberOfRanges > 1 {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                if Self.keeps(text[range], in: rule.category) { continue }
                found.append((range, rule.category))
            }
        }
        guard !found.isEmpty else { return text }
        found.sort { $0.range.lowerBound < $1.range.lowerBound }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var cursor = text.startIndex
        for (range, category) in found where range.lowerBound >= cursor {
            let value = String(text[range])
            let standIn = table.standIn(for: value, in: category) { keyed in
                Self.standIn(value, category: category, &keyed)
            }
            out += text[cursor..<range.lowerBound]
            out += standIn
            cursor = range.upperBound
            counts[category, default: 0] += 1
        }
        out += text[cursor...]
        return out
    }

    /// Values a rule matches that identify no one: `/Users/Shared`, loopback and unspecified addresses, and
    /// colon-separated runs that are not IPv6 addresses (times, MAC addresses).
    static func keeps(_ value: Substring, in category: AnonymizedCategory) -> Bool {
        switch category {
        case .userName:
            return value == "Shared"
        case .ipAddress where value.contains(":"):
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(value), &address) == 1 else { return true }
            return value == "::" || value == "::1"
        case .ipAddress:
            return value.hasPrefix("127.") || value == "0.0.0.0"
        default:
            return false
        }
    }
}
