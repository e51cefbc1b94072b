import APMInspectCore
import ByteAccess
import CrashReportParsing

/// Recognises OS terminations in a crash report and reads their watchdog details, in every era's shape.
public enum WatchdogDetector {
    /// The watchdog object for `report`, or nil when the report is not an OS termination with a known code or
    /// watchdog text (ordinary signals and exceptions are not).
    public static func analyze(_ report: CrashReport) -> WatchdogTermination? {
        let termination = report.termination
        // Most crash reports are not OS kills: decide that from cheap facts before building the text.
        let signalOnly = termination == nil || termination?.namespace == "SIGNAL"
        let legacy = report.exception?.type == "00000020"
        if signalOnly, !legacy, !mentionsWatchdogCheaply(report) { return nil }
        let text = normalizedText(report)
        var code = termination?.code.flatMap { value -> HexValue? in
            termination?.namespace == "SIGNAL" ? nil : value
        }
        if code == nil || TerminationCode.lookup(code?.value ?? 0) == nil {
            code = legacyCode(report) ?? reasonCode(text) ?? code
        }
        let known = code.flatMap { TerminationCode.lookup($0.value) }
        let namespace = termination?.namespace
        let mentionsWatchdog =
            text.containsBytes("watchdog transgression") || text.containsBytes("failed to scene-")
            || text.containsBytes("Failed to terminate gracefully")
        let osNamespace = namespace.map(osNamespaces.contains) ?? false
        guard known != nil || mentionsWatchdog || osNamespace else { return nil }
        var result = WatchdogTermination(kind: known?.kind ?? .watchdogTimeout)
        if known == nil, !mentionsWatchdog, namespace != "WATCHDOG" { result.kind = .other }
        result.code = code
        result.codeName = known?.name
        result.meaning = known?.meaning
        result.namespace = namespace
        result.raw = text.isEmpty ? nil : text
        result.flags = termination?.flags.map { TerminationCode.flagNames($0.value) }
        read(text, into: &result)
        if result.meaning == nil, result.kind == .watchdogTimeout {
            result.meaning = "watchdog: the process took longer than the system allows for an event"
        }
        result.bundleId = result.bundleId ?? report.bundleId
        result.pid = result.pid ?? report.pid
        result.diagnosis = MainThreadDiagnosis.diagnose(
            report,
            cpu: result.cpu,
            kind: result.kind,
            watchdogWindow: result.elapsedSeconds ?? result.allowanceSeconds
        )
        return result
    }

    /// Namespaces of the system components that terminate apps (not signals, not code signing, not dyld).
    private static let osNamespaces: Set<String> = [
        "SPRINGBOARD", "FRONTBOARD", "RUNNINGBOARD", "ASSERTIOND", "CAROUSEL", "WATCHDOG", "BACKBOARD",
    ]

    // MARK: - Where the text is

    /// True when the reasons or the Application Specific Information mention a watchdog at all.
    private static func mentionsWatchdogCheaply(_ report: CrashReport) -> Bool {
        let markers = ["watchdog", "failed to scene-", "Failed to terminate gracefully", "code:0x"]
        let lines = (report.termination?.reasons ?? []) + (report.applicationSpecificInformation ?? [])
        return lines.contains { line in markers.contains { line.containsBytes($0) } }
    }

    /// The reason lines, the description parts, and (for old reports) the Application Specific Information, one
    /// fact per line: ` | ` separators split, quotes and trailing commas removed.
    static func normalizedText(_ report: CrashReport) -> String {
        var normalizer = TextNormalizer()
        if let termination = report.termination {
            if let raw = termination.raw {
                forEachLine(of: raw) { normalizer.add(String($0)) }
            }
            for line in termination.reasons { normalizer.add(line) }
            for line in termination.details ?? [] { normalizer.add(line) }
        }
        for line in report.applicationSpecificInformation ?? [] { normalizer.add(line) }
        for block in report.blocks where block.title == "Application Specific Information" {
            for line in block.lines { normalizer.add(line) }
        }
        return normalizer.text
    }

    /// Calls `body` with each non-empty line of `text`, as `text.split(separator: "\n")` would give them.
    ///
    /// Splits on the bytes: an LF is a Character of its own except after a CR (`\r\n` is one Character, which a
    /// Character-level split leaves whole), so breaking at every LF not preceded by a CR is the same split.
    static func forEachLine(of text: String, _ body: (Substring) -> Void) {
        var copy = text
        var breaks: [Int] = []
        copy.withUTF8 { bytes in
            for i in 0..<bytes.count where bytes[i] == 0x0A && (i == 0 || bytes[i - 1] != 0x0D) { breaks.append(i) }
        }
        let utf8 = text.utf8
        var start = 0
        breaks.append(utf8.count)
        for end in breaks {
            if end > start {
                let lower = utf8.index(utf8.startIndex, offsetBy: start)
                let upper = utf8.index(utf8.startIndex, offsetBy: end)
                body(text[lower..<upper])
            }
            start = end + 1
        }
    }

    /// Builds ``normalizedText(_:)`` part by part: ` | ` pieces trimmed, trailing commas and quotes removed,
    /// repeats and empty pieces dropped.
    private struct TextNormalizer {
        private var seen: Set<String> = []
        private(set) var text = ""

        mutating func add(_ line: String) {
            var copy = line
            let handled = copy.withBorrowedUTF8 { bytes -> Bool in
                // Plain ASCII (no CR) has one Character per byte, so the byte work below is the Character-level
                // work of the general path; anything else takes that path.
                guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return false }
                var start = 0
                while start <= bytes.count {
                    let end = separatorOffset(in: bytes, from: start) ?? bytes.count
                    addPart(bytes.slice(start..<end))
                    start = end + 3
                }
                return true
            }
            if handled { return }
            for part in line.separated(by: " | ") {
                var clean = part.trimmingASCIIWhitespace()
                while clean.hasSuffix(",") { clean = String(clean.dropLast()) }
                clean = clean.filter { $0 != "\"" }
                insert(clean)
            }
        }

        /// The offset of the next ` | `, or nil.
        private func separatorOffset(in bytes: BorrowedBytes, from start: Int) -> Int? {
            var i = max(start, 0)
            while i + 3 <= bytes.count {
                if bytes[unchecked: i + 1] == UInt8(ascii: "|"), bytes[unchecked: i] == 0x20,
                    bytes[unchecked: i + 2] == 0x20
                {
                    return i
                }
                i += 1
            }
            return nil
        }

        private mutating func addPart(_ part: BorrowedBytes) {
            var lower = 0
            var upper = part.count
            while lower < upper, isASCIIWhitespace(part[unchecked: lower]) { lower += 1 }
            while upper > lower, isASCIIWhitespace(part[unchecked: upper - 1]) { upper -= 1 }
            while upper > lower, part[unchecked: upper - 1] == UInt8(ascii: ",") { upper -= 1 }
            let kept = part.slice(lower..<upper)
            guard !kept.isEmpty else { return }
            var quotes = 0
            for byte in kept where byte == UInt8(ascii: "\"") { quotes += 1 }
            if quotes == 0 {
                insert(kept.string)
                return
            }
            insert(
                String(utf8Capacity: kept.count - quotes) { out in
                    for byte in kept where byte != UInt8(ascii: "\"") { out.append(byte) }
                }
            )
        }

        private mutating func insert(_ clean: String) {
            guard !clean.isEmpty, seen.insert(clean).inserted else { return }
            if !text.isEmpty { text += "\n" }
            text += clean
        }
    }

    /// Pre-iOS 10: `Exception Type: 00000020` with the code in `Exception Codes`.
    private static func legacyCode(_ report: CrashReport) -> HexValue? {
        guard let exception = report.exception else { return nil }
        let values = exception.codeValues ?? []
        if let hit = values.first(where: { TerminationCode.lookup($0.value) != nil }) { return hit }
        for token in (exception.codes ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" }) {
            if let value = HexValue(parsing: token), TerminationCode.lookup(value.value) != nil { return value }
        }
        return nil
    }

    /// `code:0x8BADF00D` inside an RBSTerminateContext.
    private static func reasonCode(_ text: String) -> HexValue? {
        guard let range = text.byteRange(of: "code:0x") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isHexDigit }
        return UInt64(digits, radix: 16).map(HexValue.init)
    }

    // MARK: - Reading the facts

    private static func read(_ text: String, into result: inout WatchdogTermination) {
        var copy = text
        copy.withBorrowedUTF8 { bytes in
            var start = 0
            // The lines of `text.split(separator: "\n")`, as in ``forEachLine(of:_:)``.
            for end in 0...bytes.count
            where end == bytes.count
                || (bytes[unchecked: end] == 0x0A && (end == 0 || bytes[unchecked: end - 1] != 0x0D))
            {
                defer { start = end + 1 }
                guard end > start else { continue }
                WatchdogLineReader(bytes: bytes.slice(start..<end)).read(into: &result)
            }
        }
    }

    // MARK: - Small scanners

    /// The whole part of `value` when it fits an `Int` (a long run of digits reads as infinity, which
    /// `Int.init` traps on), nil otherwise.
    static func integer(_ value: Double) -> Int? {
        Int(exactly: value.rounded(.towardZero))
    }

    /// Space, tab, CR or LF.
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
