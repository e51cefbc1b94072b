import APMInspectCore
import ByteAccess

/// Reads the facts of one line of a watchdog's reason text (visibility, event, allowance, CPU, thermal, subject)
/// from its UTF-8 bytes.
///
/// Every marker is ASCII, so searching bytes finds what a Character-level search finds; values are cut out as byte
/// spans and become `String`s (with invalid UTF-8 repaired) only when kept. Character-level reading cost more than
/// the rest of a watchdog report's analysis.
struct WatchdogLineReader {
    /// The line's bytes.
    let bytes: BorrowedBytes

    /// A half-open byte range of the line.
    typealias Span = Range<Int>

    private var whole: Span { 0..<bytes.count }

    func read(into result: inout WatchdogTermination) {
        if let rest = after(prefix: "ProcessVisibility: ") {
            result.processVisibility = trimmed(rest)
        } else if let rest = after(prefix: "ProcessState: ") {
            result.processState = trimmed(rest)
        } else if let rest = after(prefix: "WatchdogEvent: ") {
            result.event = trimmed(rest)
        } else if let rest = after(prefix: "WatchdogVisibility: ") {
            result.watchdogVisibility = trimmed(rest)
        }
        if let value = number(after: "Elapsed total CPU time (seconds): ", in: whole) {
            var cpu = result.cpu ?? WatchdogTermination.CPUStatistics()
            cpu.totalSeconds = value
            cpu.userSeconds = number(after: "(user ", in: whole)
            cpu.systemSeconds = number(after: "system ", in: whole)
            cpu.totalPercent = percent(in: whole)
            result.cpu = cpu
        }
        if let value = number(after: "Elapsed application CPU time (seconds): ", in: whole) {
            var cpu = result.cpu ?? WatchdogTermination.CPUStatistics()
            cpu.appSeconds = value
            cpu.appPercent = percent(in: whole)
            result.cpu = cpu
        }
        if let value = number(after: "Thermal Level: ", in: whole) {
            var thermal = result.thermal ?? WatchdogTermination.Thermal()
            thermal.level = WatchdogDetector.integer(value)
            result.thermal = thermal
        }
        if let found = find("Thermal State: ", in: whole) {
            var thermal = result.thermal ?? WatchdogTermination.Thermal()
            thermal.state = trimmed(found.upperBound..<bytes.count)
            result.thermal = thermal
        }
        if let value = token(after: "domain:", in: whole), let domain = Int(value) {
            result.domain = domain
            result.domainName = TerminationCode.namespaces[domain]
        }
        if let value = token(after: "reportType:", in: whole) { result.reportType = value }
        if let value = token(after: "maxTerminationResistance:", in: whole) {
            result.maxTerminationResistance = value.hasSuffix(">") ? String(value.dropLast()) : value
        }
        readTransgression(into: &result)
        if let seconds = number(after: "Failed to terminate gracefully after ", in: whole) {
            result.allowanceSeconds = seconds
            result.event = result.event ?? "process-exit"
            readProcess(into: &result)
        }
        readLegacyFailure(into: &result)
        if let seconds = number(after: "Exhausted wall time allowance of ", in: whole) {
            result.allowanceSeconds = seconds
            result.allowanceKind = "real (wall clock)"
        }
    }

    /// `scene-update watchdog transgression: application<com.x>:64385 exhausted real (wall clock) time allowance of
    /// 10.00 seconds`, with `app<com.x(UUID)>:pid` and a bare bundle id (iOS 11) as variants.
    private func readTransgression(into result: inout WatchdogTermination) {
        guard let found = find(" watchdog transgression", in: whole) else { return }
        let eventWord = lastWord(in: 0..<found.lowerBound) { $0 == 0x20 || $0 == 0x3A || $0 == 0x2C }
        if let eventWord, result.event == nil { result.event = string(eventWord) }
        let after = found.upperBound..<bytes.count
        if let exhausted = find(" exhausted ", in: after) {
            var subjectStart = after.lowerBound
            while subjectStart < exhausted.lowerBound,
                bytes[unchecked: subjectStart] == 0x3A || bytes[unchecked: subjectStart] == 0x20
                    || bytes[unchecked: subjectStart] == 0x2E
            {
                subjectStart += 1
            }
            readSubject(subjectStart..<exhausted.lowerBound, into: &result)
            let rest = exhausted.upperBound..<bytes.count
            if let allowance = find(" time allowance of ", in: rest) {
                result.allowanceKind = string(rest.lowerBound..<allowance.lowerBound)
                result.allowanceSeconds = number(after: " time allowance of ", in: rest)
            }
        }
    }

    /// `application<com.x>:64385`, `app<com.x(UUID)>:64385`, `xpcservice<…>:220:220` or `com.x`.
    private func readSubject(_ subject: Span, into result: inout WatchdogTermination) {
        let open = subject.first { bytes[unchecked: $0] == UInt8(ascii: "<") }
        let close = subject.last { bytes[unchecked: $0] == UInt8(ascii: ">") }
        if let open, let close, open < close {
            var inner = (open + 1)..<close
            if !inner.isEmpty, bytes[unchecked: close - 1] == UInt8(ascii: ")"),
                let paren = inner.last(where: { bytes[unchecked: $0] == UInt8(ascii: "(") })
            {
                result.bundleInstanceUUID = string((paren + 1)..<(close - 1))
                inner = inner.lowerBound..<paren
            }
            result.bundleId = string(inner)
            let text = (close + 1)..<subject.upperBound
            if !text.isEmpty, bytes[unchecked: text.lowerBound] == UInt8(ascii: ":") {
                result.pid = Int64(string(digits(from: text.lowerBound + 1, upTo: text.upperBound)))
            }
        } else {
            var end = subject.lowerBound
            while end < subject.upperBound, bytes[unchecked: end] != 0x20, bytes[unchecked: end] != 0x3A { end += 1 }
            if end > subject.lowerBound { result.bundleId = string(subject.lowerBound..<end) }
            if end < subject.upperBound, bytes[unchecked: end] == UInt8(ascii: ":") {
                result.pid = Int64(string(digits(from: end + 1, upTo: subject.upperBound)))
            }
        }
    }

    /// The `[app<com.x(UUID)>:pid]` subject of a `Failed to terminate gracefully` line.
    private func readProcess(into result: inout WatchdogTermination) {
        guard let open = find("app<", in: whole) ?? find("application<", in: whole) else { return }
        var end = open.lowerBound
        while end < bytes.count, bytes[unchecked: end] != 0x20 { end += 1 }
        readSubject(open.lowerBound..<end, into: &result)
    }

    /// Pre-iOS 10: `com.x failed to scene-create after 19.81s (launch took 0.19s of total time limit 20.00s)`.
    private func readLegacyFailure(into result: inout WatchdogTermination) {
        guard let failed = find(" failed to ", in: whole) else { return }
        let bundle = lastWord(in: 0..<failed.lowerBound) { $0 == 0x20 }.map(string)
        let rest = failed.upperBound..<bytes.count
        guard let after = find(" after ", in: rest) else { return }
        result.event = result.event ?? string(rest.lowerBound..<after.lowerBound)
        result.bundleId = result.bundleId ?? bundle
        result.elapsedSeconds = number(after: " after ", in: rest)
        if let limit = number(after: "total time limit ", in: rest) {
            result.allowanceSeconds = limit
            result.allowanceKind = result.allowanceKind ?? "real (wall clock)"
        }
    }

    // MARK: - Byte scanners

    /// The rest of the line after `prefix`, when the line starts with it.
    private func after(prefix: StaticString) -> Span? {
        guard bytes.hasPrefix(prefix) else { return nil }
        return prefix.utf8CodeUnitCount..<bytes.count
    }

    /// The first occurrence of `marker` within `span`.
    private func find(_ marker: StaticString, in span: Span) -> Span? {
        marker.withBorrowedUTF8 { pattern -> Span? in
            let window = bytes.prefix(span.upperBound)
            guard let offset = window.firstIndex(of: pattern, from: span.lowerBound) else { return nil }
            return offset..<(offset + pattern.count)
        }
    }

    /// The last run of bytes that are not separators within `span` (the last piece of a split that omits empty
    /// pieces).
    private func lastWord(in span: Span, isSeparator: (UInt8) -> Bool) -> Span? {
        var end = span.upperBound
        while end > span.lowerBound, isSeparator(bytes[unchecked: end - 1]) { end -= 1 }
        guard end > span.lowerBound else { return nil }
        var start = end
        while start > span.lowerBound, !isSeparator(bytes[unchecked: start - 1]) { start -= 1 }
        return start..<end
    }

    /// The run of ASCII digits starting at `start`.
    private func digits(from start: Int, upTo end: Int) -> Span {
        var stop = start
        while stop < end, bytes[unchecked: stop] &- UInt8(ascii: "0") < 10 { stop += 1 }
        return start..<stop
    }

    /// The decimal number right after `marker` (spaces skipped), or nil.
    private func number(after marker: StaticString, in span: Span) -> Double? {
        guard let found = find(marker, in: span) else { return nil }
        var start = found.upperBound
        while start < span.upperBound, bytes[unchecked: start] == 0x20 { start += 1 }
        var end = start
        while end < span.upperBound,
            bytes[unchecked: end] &- UInt8(ascii: "0") < 10 || bytes[unchecked: end] == UInt8(ascii: ".")
        {
            end += 1
        }
        return Double(string(start..<end))
    }

    /// The `NN% CPU` figure of a line.
    private func percent(in span: Span) -> Double? {
        guard let found = find("% CPU", in: span) else { return nil }
        var start = found.lowerBound
        while start > span.lowerBound,
            bytes[unchecked: start - 1] &- UInt8(ascii: "0") < 10 || bytes[unchecked: start - 1] == UInt8(ascii: ".")
        {
            start -= 1
        }
        return Double(string(start..<found.lowerBound))
    }

    /// The run of non-space bytes after `marker`.
    private func token(after marker: StaticString, in span: Span) -> String? {
        guard let found = find(marker, in: span) else { return nil }
        var end = found.upperBound
        while end < span.upperBound, bytes[unchecked: end] != 0x20 { end += 1 }
        return end > found.upperBound ? string(found.upperBound..<end) : nil
    }

    /// The span without leading and trailing spaces, tabs and LFs, as a string.
    private func trimmed(_ span: Span) -> String {
        var lower = span.lowerBound
        var upper = span.upperBound
        while lower < upper, WatchdogDetector.isASCIIWhitespace(bytes[unchecked: lower]) { lower += 1 }
        while upper > lower, WatchdogDetector.isASCIIWhitespace(bytes[unchecked: upper - 1]) { upper -= 1 }
        return string(lower..<upper)
    }

    private func string(_ span: Span) -> String {
        bytes.slice(span).string
    }
}
