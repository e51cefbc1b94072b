import APMInspectCore
import ByteAccess
import CrashReportParsing

/// Rewrites a text crash report (or the text body of an `.ips`) with its frames symbolicated, in its own layout,
/// as symbolicatecrash does: every line but the resolved frames' stays byte for byte.
///
/// A resolved frame keeps its number, image and address columns; what follows the address becomes
/// `symbol + offset (file:line)`. An inline chain becomes one line per function, all at the same address, the
/// inlined ones marked `[inlined]` as Xcode prints them, and the thread's later frames are renumbered.
///
/// Names and paths come from the dSYM, which is as much the input's as the report: a function named
/// `f\n0   Forged  0x0 main + 0\nBinary Images:` would otherwise write frames and images of its own. Every line
/// written here has its controls escaped (tabs kept, as the layout's own), and a name or path its tabs too, so one
/// frame is one line whatever its names hold. Lines not rewritten stay as the report had them.
package enum TextReportRewriter {
    /// The report's text with the frames of `outcome` in place of those of `original`.
    package static func rewrite(_ text: [UInt8], original: CrashReport, outcome: SymbolicationOutcome) -> [UInt8] {
        var replacements: [String: [[String]]] = [:]
        func plan(_ frames: [CrashReport.Frame], _ new: [CrashReport.Frame], _ origins: [Int], _ changed: Set<Int>) {
            guard !changed.isEmpty, origins.count == new.count else { return }
            // The new frames of each written one, gathered in one pass (origins are in order).
            var newFrames = [[Int]](repeating: [], count: frames.count)
            for (k, origin) in origins.enumerated() where frames.indices.contains(origin) {
                newFrames[origin].append(k)
            }
            for position in frames.indices {
                guard let raw = frames[position].raw else { continue }
                let key = trimmed(raw)
                guard !key.isEmpty else { continue }
                let lines = newFrames[position].map { k in
                    changed.contains(position)
                        ? resolvedLine(raw, written: frames[position], resolved: new[k])
                        : renumbered(raw, to: new[k].index)
                }
                if !lines.isEmpty { replacements[key, default: []].append(lines) }
            }
        }
        for t in original.threads.indices where t < outcome.report.threads.count && t < outcome.threadOrigins.count {
            plan(
                original.threads[t].frames,
                outcome.report.threads[t].frames,
                outcome.threadOrigins[t],
                outcome.changedThreadFrames[t]
            )
        }
        // The compact form `(0x1a2b 0x3c4d …)` has no line per frame: it becomes one, as symbolicatecrash does.
        var exceptionLines: [String]?
        if let frames = original.lastExceptionBacktrace, let new = outcome.report.lastExceptionBacktrace {
            if !outcome.changedExceptionFrames.isEmpty, frames.allSatisfy({ $0.raw == nil }) {
                exceptionLines = new.map(frameLine)
            } else {
                plan(frames, new, outcome.exceptionOrigins, outcome.changedExceptionFrames)
            }
        }
        // KSCrash's recrash report follows the report in the text: its frames' lines come after the report's.
        if let recrash = original.recrashReport, let resolved = outcome.report.recrashReport {
            for t in recrash.threads.indices
            where t < resolved.threads.count && t < outcome.recrashThreadOrigins.count
                && t < outcome.changedRecrashThreadFrames.count
            {
                plan(
                    recrash.threads[t].frames,
                    resolved.threads[t].frames,
                    outcome.recrashThreadOrigins[t],
                    outcome.changedRecrashThreadFrames[t]
                )
            }
        }
        guard !replacements.isEmpty || exceptionLines != nil else { return text }
        var inExceptionHeading = false
        var output: [UInt8] = []
        output.reserveCapacity(text.count + text.count / 4)
        var start = 0
        // How many of each line's replacements were used: identical written lines take theirs in order.
        var used: [String: Int] = [:]
        text.withBorrowedBytes { bytes in
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[unchecked: end] != 0x0A { end += 1 }
                let hasNewline = end < bytes.count
                var contentEnd = end
                if contentEnd > start && bytes[unchecked: contentEnd - 1] == 0x0D { contentEnd -= 1 }
                // Only a line whose first non-blank byte is a digit can be a frame: others are copied unread.
                var head = start
                while head < contentEnd && (bytes[unchecked: head] == 0x20 || bytes[unchecked: head] == 0x09) {
                    head += 1
                }
                let mayBeFrame = head < contentEnd && bytes[unchecked: head] >= 0x30 && bytes[unchecked: head] <= 0x39
                if let lines = exceptionLines, inExceptionHeading, head < contentEnd, bytes[unchecked: head] == 0x28 {
                    for line in lines {
                        output.append(contentsOf: TerminalText.escapedKeepingLayout(line).utf8)
                        output.append(0x0A)
                    }
                    exceptionLines = nil
                    start = hasNewline ? end + 1 : end
                    continue
                }
                if exceptionLines != nil {
                    inExceptionHeading = bytes.slice(head..<contentEnd).hasPrefix("Last Exception Backtrace:")
                }
                let line =
                    mayBeFrame
                    ? bytes.slice(start..<contentEnd).string : ""
                let key = mayBeFrame ? trimmed(line) : ""
                let next = mayBeFrame ? used[key, default: 0] : 0
                if !key.isEmpty, let queue = replacements[key], next < queue.count {
                    let lines = queue[next]
                    used[key] = next + 1
                    let indent = String(line.prefix { $0 == " " || $0 == "\t" })
                    let ending = bytes.slice(contentEnd..<(hasNewline ? end + 1 : end)).array
                    for (k, replacement) in lines.enumerated() {
                        output.append(contentsOf: TerminalText.escapedKeepingLayout(indent + trimmed(replacement)).utf8)
                        // Each added line ends as the written one did.
                        output.append(contentsOf: k < lines.count - 1 && ending.isEmpty ? [0x0A] : ending)
                    }
                } else {
                    bytes.slice(start..<(hasNewline ? end + 1 : end)).append(to: &output)
                }
                start = hasNewline ? end + 1 : end
            }
        }
        return output
    }

    /// `3   Demo    \t0x0000000102f200b0 main + 28 (main.c:23)`: a whole frame line in the iOS text layout, for
    /// frames the report listed without lines of their own.
    static func frameLine(_ frame: CrashReport.Frame) -> String {
        let number = String(frame.index)
        let image = TerminalText.escaped(frame.image ?? "???")
        var line = number + String(repeating: " ", count: max(1, 4 - number.count))
        line += image + String(repeating: " ", count: max(1, 30 - image.count)) + "\t"
        guard let address = frame.address?.value else { return line + "??? ???" }
        let hex = String(address, radix: 16)
        line += "0x" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex + " "
        if frame.symbol != nil { return line + symbolText(frame) }
        if let offset = frame.imageOffset, offset <= address {
            return line + "0x" + String(address - offset, radix: 16) + " + \(offset)"
        }
        return line + "???"
    }

    /// `0x1007da4bc main + 40 (AppDelegate.swift:9)`, the part of a frame line after the image column; the name
    /// and file with every control escaped (tabs and line breaks too), so that they stay inside their line.
    package static func symbolText(_ frame: CrashReport.Frame) -> String {
        var text = TerminalText.escaped(frame.symbol ?? "???")
        if let offset = frame.symbolOffset { text += " + \(offset)" }
        if let file = frame.file {
            // Apple prints the file's last path component and 0 for an unknown line: `(<compiler-generated>:0)`.
            let name = file.split(separator: "/").last.map(String.init) ?? file
            text += " (\(TerminalText.escaped(name)):\(frame.line ?? 0))"
        }
        if frame.inlined == true { text += " [inlined]" }
        return text
    }

    /// The written line with its number changed to `index` and what follows its address replaced.
    static func resolvedLine(_ raw: String, written: CrashReport.Frame, resolved: CrashReport.Frame) -> String {
        let line = renumbered(raw, to: resolved.index)
        guard let address = written.address?.value, let end = addressEnd(in: line, value: address) else {
            return line
        }
        return String(line[..<end]) + " " + symbolText(resolved)
    }

    /// Where the hex token spelling `value` ends in `line` (the first such token after the frame number).
    static func addressEnd(in line: String, value: UInt64) -> String.Index? {
        var index = line.startIndex
        while let zero = line[index...].firstIndex(of: "0") {
            let x = line.index(after: zero)
            guard x < line.endIndex else { return nil }
            if line[x] == "x" || line[x] == "X" {
                let digitsStart = line.index(after: x)
                let digitsEnd = line[digitsStart...].firstIndex { !$0.isHexDigit } ?? line.endIndex
                if digitsEnd > digitsStart, UInt64(line[digitsStart..<digitsEnd], radix: 16) == value {
                    return digitsEnd
                }
                index = digitsEnd
            } else {
                index = x
            }
        }
        return nil
    }

    /// The line with its leading frame number replaced by `index`, the columns after it kept in place.
    static func renumbered(_ raw: String, to index: Int) -> String {
        let line = trimmed(raw)
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return line }
        let rest = line.dropFirst(digits.count)
        let spaces = rest.prefix { $0 == " " || $0 == "\t" }
        guard !spaces.isEmpty else { return line }
        let number = String(index)
        let width = digits.count + spaces.count
        if spaces.allSatisfy({ $0 == " " }) {
            let padding = max(1, width - number.count)
            return number + String(repeating: " ", count: padding) + rest.dropFirst(spaces.count)
        }
        return number + rest
    }

    /// `text` without the blanks around it (and a trailing CR), sliced on its UTF-8 bytes.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })
        else { return "" }
        return String(text[first...last])
    }
}
