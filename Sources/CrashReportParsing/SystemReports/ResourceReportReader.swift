import APMInspectCore

/// Reads a microstackshot resource report (bug_type 142, 145, 202, 206): the header line, then `Key: value` lines and
/// the heaviest stack of the target process.
///
/// Every line is looked at once; the stack stops at its first blank line and at `maxFrames` frames, the fields
/// at `maxFields`, so time and memory follow the size of the input. What cannot be read is a diagnostic.
package struct ResourceReportReader: Sendable {
    /// More frames than any real heaviest stack (a few dozen): the rest are counted in a diagnostic.
    package var maxFrames = 1024
    /// More `Key: value` lines than a real report's preamble has.
    package var maxFields = 512

    package init() {}

    /// True when the bug type is one of the resource reports this reader models.
    ///
    /// 142 (SymptomsCPUWakes, wakeups) is the fourth of the microstackshot resource reports Apple's bug_type table
    /// names: the same body, another budget.
    package static func reads(_ bugType: BugType) -> Bool { ["142", "145", "202", "206"].contains(bugType.code) }

    /// Reads the container's text body.
    ///
    /// - Throws: `InputError` when the body is not text (a resource report's body is never JSON) or holds
    ///   neither an `Event` nor a heaviest stack.
    package func parse(_ container: IPSContainer) throws(InputError) -> (
        report: ResourceReport, diagnostics: [Diagnostic]
    ) {
        guard container.bodyKind == .text else {
            throw InputError(
                .unreadableBody,
                "a resource report's body is text (Event, limits, heaviest stack); this one is \(container.bodyKind.rawValue)",
                at: SourceLocation(byteOffset: container.bodyOrigin.byteOffset, line: container.bodyOrigin.line)
            )
        }
        var diagnostics = container.diagnostics
        let bugType = container.bugType
        var report = ResourceReport(
            header: container.header,
            bugType: bugType?.code,
            bugTypeName: bugType?.name,
            resource: .other,
            isFatal: bugType?.code == "206",
            heaviestStack: [],
            fields: []
        )
        var values: [String: String] = [:]
        var inStack = false
        var sawStack = false
        var droppedFrames = 0
        var droppedFields = 0
        var unreadFrames = 0
        let text = String(decoding: container.body, as: UTF8.self)
        var lineNumber = container.bodyOrigin.line - 1
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("Heaviest stack for the target process") {
                inStack = !sawStack
                sawStack = true
                continue
            }
            if inStack {
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    inStack = false
                    continue
                }
                guard let frame = Self.frame(line) else {
                    unreadFrames += 1
                    if unreadFrames == 1 {
                        diagnostics.append(
                            Diagnostic(
                                .warning,
                                .resourceUnreadableFrame,
                                "a line of the heaviest stack is not a frame (count, symbol, (image + offset))",
                                at: SourceLocation(line: lineNumber, column: 1)
                            )
                        )
                    }
                    continue
                }
                if report.heaviestStack.count < maxFrames {
                    report.heaviestStack.append(frame)
                } else {
                    droppedFrames += 1
                }
                continue
            }
            if sawStack || line.hasPrefix("Powerstats for") { continue }
            guard let first = line.first, first != " ", first != "\t", let colon = line.firstIndex(of: ":") else {
                continue
            }
            let key = String(line[..<colon]).trimmingASCIIWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingASCIIWhitespace()
            guard !key.isEmpty, key.utf8.count <= 64 else { continue }
            if report.fields.count >= maxFields {
                droppedFields += 1
                continue
            }
            report.fields.append(ResourceReport.Field(key: key, value: value))
            if values[key] == nil { values[key] = value }
        }
        if droppedFrames > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .resourceFrameListTruncated,
                    "kept the first \(maxFrames) frames of the heaviest stack; \(droppedFrames) more were left out"
                )
            )
        }
        if droppedFields > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .resourceFieldListTruncated,
                    "kept the first \(maxFields) fields; \(droppedFields) more were left out"
                )
            )
        }
        guard values["Event"] != nil || sawStack else {
            throw InputError(
                .unreadableBody,
                "the body has neither an Event line nor a heaviest stack: not a resource report",
                at: SourceLocation(byteOffset: container.bodyOrigin.byteOffset, line: container.bodyOrigin.line)
            )
        }
        fill(&report, from: values, diagnostics: &diagnostics)
        return (report, diagnostics)
    }

    private func fill(_ report: inout ResourceReport, from values: [String: String], diagnostics: inout [Diagnostic]) {
        report.event = values["Event"]
        report.actionTaken = values["Action taken"]
        if let action = report.actionTaken?.lowercased(), action.contains("kill") || action.contains("terminat") {
            report.isFatal = true
        }
        report.process = values["Command"] ?? report.header?.name
        report.path = values["Path"]
        report.pid = values["PID"].flatMap { Int64($0) }
        report.osVersion = values["OS Version"] ?? report.header?.osVersion
        report.architecture = values["Architecture"]
        report.hardwareModel = values["Hardware model"] ?? values["Hardware Model"]
        report.resource = Self.resource(event: report.event, bugType: report.bugType)
        let prefix: String
        switch report.resource {
        case .diskWrites: prefix = "Writes"
        case .cpu: prefix = "CPU"
        case .wakeups: prefix = "Wakeups"
        case .other: prefix = ""
        }
        report.summary = values[prefix]
        report.limit = values["\(prefix) limit"].flatMap(Self.figure)
        report.limitDurationSeconds = values["Limit duration"].flatMap(Self.seconds)
        report.observed = (values["\(prefix) caused"] ?? values["\(prefix) used"]).flatMap(Self.figure)
        report.observedDurationSeconds = values["\(prefix) duration"].flatMap(Self.seconds)
        if let summary = report.summary {
            // `1073.74 MB of file backed memory dirtied over 8588 seconds, exceeding …`
            if report.observed == nil {
                report.observed = Self.figure(Self.words(summary).prefix(2).joined(separator: " "))
            }
            if report.observedDurationSeconds == nil, let over = summary.byteRange(of: " over ") {
                report.observedDurationSeconds = Self.seconds(String(summary[over.upperBound...]))
            }
        }
        report.durationSeconds = values["Duration"].flatMap(Self.seconds)
        report.durationSampledSeconds = values["Duration Sampled"].flatMap(Self.seconds)
        report.steps = values["Steps"].flatMap { Int(Self.words($0).first ?? "") }
        if report.limit == nil, report.event != nil {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .resourceNoLimit,
                    "the report states no \(prefix.isEmpty ? "resource" : prefix) limit"
                )
            )
        }
    }

    static func resource(event: String?, bugType: String?) -> ResourceReport.Resource {
        let event = event?.lowercased() ?? ""
        if event.contains("write") { return .diskWrites }
        if event.contains("cpu") { return .cpu }
        if event.contains("wakeup") { return .wakeups }
        switch bugType {
        case "142": return .wakeups
        case "145": return .diskWrites
        case "202", "206": return .cpu
        default: return .other
        }
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// `1073.74 MB`, `48s`, `80%`, `144 seconds`: the number and its unit; nil when there is no finite number.
    static func figure(_ text: String) -> ResourceReport.Figure? {
        let trimmed = text.trimmingASCIIWhitespace()
        let numberEnd = trimmed.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? trimmed.endIndex
        guard numberEnd > trimmed.startIndex, trimmed.distance(from: trimmed.startIndex, to: numberEnd) <= 32,
            let value = Double(trimmed[..<numberEnd]), value.isFinite
        else { return nil }
        let rest = trimmed[numberEnd...].trimmingPrefix(" ")
        let unit = rest.split(separator: " ").first.map(String.init) ?? ""
        return ResourceReport.Figure(value: value, unit: unit, text: trimmed)
    }

    /// A duration in seconds from `86400s`, `8588 seconds`, `110.95s`.
    static func seconds(_ text: String) -> Double? {
        guard let figure = figure(text) else { return nil }
        switch figure.unit.lowercased() {
        case "s", "sec", "secs", "second", "seconds", "": return figure.value
        case "ms": return figure.value / 1000
        case "min", "mins", "minutes": return figure.value * 60
        default: return figure.value.isFinite && figure.unit.hasPrefix("second") ? figure.value : nil
        }
    }

    /// `61  ??? (libsystem_pthread.dylib + 2240) [0x22f72b8c0]`, symbolicated or not; nil for any other line.
    static func frame(_ line: Substring) -> SampledFrame? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let countEnd = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }),
            let count = Int(trimmed[..<countEnd]), count >= 0
        else { return nil }
        var rest = trimmed[countEnd...].drop { $0 == " " || $0 == "\t" }
        var address: HexValue?
        if rest.hasSuffix("]"), let open = rest.lastIndex(of: "[") {
            let hex = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            if hex.hasPrefix("0x") || hex.hasPrefix("0X") {
                address = UInt64(hex.dropFirst(2), radix: 16).map(HexValue.init)
            }
            rest = rest[..<open]
            while rest.last == " " { rest = rest.dropLast() }
        }
        guard rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") else { return nil }
        let inside = String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
        guard let plus = inside.byteRangeLast(of: " + ") else { return nil }
        let image = inside[..<plus.lowerBound].trimmingPrefix(" ")
        let offsetText = inside[plus.upperBound...]
        let offset: UInt64? =
            offsetText.hasPrefix("0x") ? UInt64(offsetText.dropFirst(2), radix: 16) : UInt64(offsetText)
        guard let offset, !image.isEmpty else { return nil }
        var symbol = String(rest[..<open])
        while symbol.last == " " { symbol.removeLast() }
        return SampledFrame(
            image: String(image),
            imageOffset: offset,
            address: address,
            symbol: symbol.isEmpty ? nil : symbol,
            sampleCount: count
        )
    }
}
