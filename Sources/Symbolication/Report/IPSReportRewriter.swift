import APMInspectCore
import CrashReportParsing

/// Rewrites a JSON `.ips` (bug_type 309) with its frames symbolicated: the header line and every byte outside the
/// rewritten `frames` arrays stay as written.
///
/// A resolved frame object keeps its own members and gains those Apple's symbolicated `.ips` carry: `symbol`
/// (demangled), `symbolLocation`, `sourceFile` (the file's name, as Apple writes it), `sourceLine`, and
/// `inline: true` for each inlined function of a chain, which takes a frame object of its own.
package enum IPSReportRewriter {
    /// The members a resolved frame replaces.
    static let replacedKeys: Set<String> = ["symbol", "symbolLocation", "sourceFile", "sourceLine", "inline"]

    /// The file's bytes with the frames of `outcome`, or nil when the body is not JSON this rewriter can splice
    /// (the caller then writes the report unchanged, with a diagnostic).
    package static func rewrite(
        _ bytes: [UInt8],
        original: CrashReport,
        outcome: SymbolicationOutcome
    ) -> [UInt8]? {
        let container = IPSContainer(bytes: bytes)
        guard container.bodyKind == .json, let document = try? container.parseJSONBody() else { return nil }
        let root = document.root
        guard root.kind == .object else { return nil }
        // Splices, as (range of the body, replacement), in body order.
        var splices: [(Range<Int>, [UInt8])] = []
        func plan(
            _ array: JSONElement?,
            written: [CrashReport.Frame],
            new: [CrashReport.Frame],
            origins: [Int],
            changed: Set<Int>
        ) {
            guard !changed.isEmpty, let array, array.kind == .array, !array.isTruncated, !array.isOpaque,
                origins.count == new.count
            else { return }
            let elements = Array(array.elements)
            guard elements.count == written.count else { return }
            var text: [UInt8] = [0x5B]
            for (k, frame) in new.enumerated() {
                let position = origins[k]
                guard elements.indices.contains(position) else { return }
                if k > 0 { text.append(0x2C) }
                let element = elements[position]
                if changed.contains(position) {
                    guard element.kind == .object else { return }
                    text.append(contentsOf: frameObject(element, frame: frame))
                } else {
                    text.append(contentsOf: document.bytes[clamped(element.sourceRange, document.bytes.count)])
                }
            }
            text.append(0x5D)
            splices.append((clamped(array.sourceRange, document.bytes.count), text))
        }
        if let threads = root.member("threads"), threads.kind == .array {
            for (t, thread) in threads.elements.enumerated()
            where t < original.threads.count && t < outcome.report.threads.count && t < outcome.threadOrigins.count {
                plan(
                    thread.member("frames"),
                    written: original.threads[t].frames,
                    new: outcome.report.threads[t].frames,
                    origins: outcome.threadOrigins[t],
                    changed: outcome.changedThreadFrames[t]
                )
            }
        }
        if let written = original.lastExceptionBacktrace, let new = outcome.report.lastExceptionBacktrace {
            plan(
                root.member("lastExceptionBacktrace"),
                written: written,
                new: new,
                origins: outcome.exceptionOrigins,
                changed: outcome.changedExceptionFrames
            )
        }
        splices.sort { $0.0.lowerBound < $1.0.lowerBound }
        var body: [UInt8] = []
        body.reserveCapacity(document.bytes.count + document.bytes.count / 4)
        var cursor = 0
        for (range, replacement) in splices where range.lowerBound >= cursor {
            body.append(contentsOf: document.bytes[cursor..<range.lowerBound])
            body.append(contentsOf: replacement)
            cursor = range.upperBound
        }
        body.append(contentsOf: document.bytes[cursor...])
        let headerEnd = min(max(container.bodyOrigin.byteOffset, 0), bytes.count)
        return Array(bytes[..<headerEnd]) + body
    }

    /// `{` the element's own members but those replaced `,` the resolved ones `}`.
    static func frameObject(_ element: JSONElement, frame: CrashReport.Frame) -> [UInt8] {
        var members: [[UInt8]] = []
        let bytes = element.document.bytes
        element.forEachMember { key, value in
            guard !replacedKeys.contains(key) else { return }
            members.append(Array(quoted(key).utf8) + [0x3A] + Array(bytes[clamped(value.sourceRange, bytes.count)]))
        }
        if let symbol = frame.symbol { members.append(Array("\"symbol\":\(quoted(symbol))".utf8)) }
        if let offset = frame.symbolOffset { members.append(Array("\"symbolLocation\":\(offset)".utf8)) }
        if let file = frame.file {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            members.append(Array("\"sourceFile\":\(quoted(name))".utf8))
        }
        if let line = frame.line { members.append(Array("\"sourceLine\":\(line)".utf8)) }
        if frame.inlined == true { members.append(Array("\"inline\":true".utf8)) }
        var object: [UInt8] = [0x7B]
        for (k, member) in members.enumerated() {
            if k > 0 { object.append(0x2C) }
            object.append(contentsOf: member)
        }
        object.append(0x7D)
        return object
    }

    static func clamped(_ range: Range<Int>, _ count: Int) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count)
        return lower..<min(max(range.upperBound, lower), count)
    }

    /// `text` as a JSON string, escaped as Apple's writer does (`/` left plain).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
