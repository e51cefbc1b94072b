import APMInspectCore

/// Reads legacy text crash reports line by line: iOS and macOS layouts of every era, PLCrashReporter and KSCrash
/// output, Console translations, and fragments pasted into prose.
///
/// A state machine over lines, with no regular expressions over the whole file: header and exception fields
/// (`Key: value`, with continuation lines), free-text blocks, thread headers and frames, thread state, binary
/// images. Anything it does not recognise is kept: unknown header keys in ``CrashReport/unknownKeys``, unknown
/// blocks in ``CrashReport/blocks``.
struct CrashTextReader {
    private enum Mode {
        case header
        case continuation(String)
        case block(Int)
        case frames(Int)
        case lastExceptionBacktrace
        case registers(Int)
        case images
        case done
    }

    var diagnostics: [Diagnostic] = []
    private var report: CrashReport
    private var mode = Mode.header
    private var unknown: [JSONValue.Member] = []
    private var pendingNames: [Int: String] = [:]
    private var sawHeaderField = false
    private var lineNumber = 0
    /// The block that text after a blank line may still belong to (VM Region Summary tables, instruction streams).
    private var lastBlock: Int?
    private let origin: TextOrigin

    init(format: CrashReport.SourceFormat, header: IPSHeader?, origin: TextOrigin) {
        self.report = CrashReport(sourceFormat: format, header: header)
        self.origin = origin
    }

    /// Reads every line of `text` and returns the model.
    mutating func read(_ text: String) -> CrashReport {
        var text = text
        // Lines are split on the bytes: grapheme-aware splitting costs more than the rest of the parse.
        let lines: [Substring] = text.withUTF8 { bytes in
            var result: [Substring] = []
            var start = 0
            var i = 0
            while i <= bytes.count {
                if i == bytes.count || bytes[i] == 0x0A {
                    var end = i
                    if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                    var first = start
                    if result.isEmpty, end - first >= 3, bytes[first] == 0xEF, bytes[first + 1] == 0xBB,
                        bytes[first + 2] == 0xBF
                    {
                        first += 3
                    }
                    result.append(
                        Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self))
                    )
                    start = i + 1
                }
                i += 1
            }
            return result
        }
        for (offset, line) in lines.enumerated() {
            lineNumber = origin.line + offset
            consume(line)
            if case .done = mode { break }
        }
        finish()
        return report
    }

    // MARK: - Dispatch

    private mutating func consume(_ raw: Substring) {
        let line = raw.drop { $0 == " " || $0 == "\t" }
        if line.isEmpty {
            endOfBlock()
            return
        }
        if line == "EOF" {
            mode = .done
            return
        }
        if let thread = threadHeader(line) {
            startThread(thread)
            return
        }
        if line.hasPrefix("Binary Images") && line.hasSuffix(":") {
            lastBlock = nil
            mode = .images
            return
        }
        if line.hasPrefix("Last Exception Backtrace:") {
            mode = .lastExceptionBacktrace
            report.lastExceptionBacktrace = report.lastExceptionBacktrace ?? []
            let rest = line.dropFirst("Last Exception Backtrace:".count).drop { $0 == " " }
            if !rest.isEmpty { lastExceptionLine(rest) }
            return
        }
        switch mode {
        case .frames(let thread):
            if let frame = Self.parseFrame(line, raw: raw) {
                appendFrame(frame, thread: thread)
                return
            }
        case .lastExceptionBacktrace:
            if lastExceptionLine(line) { return }
        case .registers(let thread):
            if registerLine(line, thread: thread) { return }
        case .images:
            if let image = Self.parseImage(line) {
                report.binaryImages.append(image)
                return
            }
        case .block(let index):
            if !startsKnownField(line) {
                report.blocks[index].lines.append(String(raw))
                return
            }
        case .continuation(let key):
            if !startsKnownField(line) && !line.hasSuffix(":") {
                continueField(key, String(line))
                return
            }
        case .header, .done:
            break
        }
        if line.hasPrefix("Thread "), line.hasSuffix(":"), line.containsBytes("Thread State") {
            startRegisters(line)
            return
        }
        if let index = lastBlock, index < report.blocks.count, !startsKnownField(line) {
            // Free text after a blank line inside a block (tables, hex dumps, the CPU lines under an old
            // watchdog's Application Specific Information): keep the blank line too.
            report.blocks[index].lines.append("")
            report.blocks[index].lines.append(String(raw))
            mode = .block(index)
            return
        }
        if let (key, value) = Self.keyValue(line) {
            field(key, value)
            return
        }
        if case .frames = mode {
            // A line inside a thread that is not a frame: keep it rather than drop it.
            note("a line in a backtrace is not a frame; kept in unknownKeys")
            unknown.append(JSONValue.Member(key: "unparsed line \(lineNumber)", value: .string(String(raw))))
            return
        }
        if let frame = Self.parseFrame(line, raw: raw), report.threads.isEmpty {
            // Frames before any thread header: a pasted fragment of a backtrace.
            startThread((index: 0, crashed: false, attributed: false, rest: ""))
            appendFrame(frame, thread: 0)
            return
        }
        unknown.append(JSONValue.Member(key: "unparsed line \(lineNumber)", value: .string(String(raw))))
    }

    private mutating func endOfBlock() {
        switch mode {
        case .images, .done, .header:
            break
        default:
            mode = .header
        }
    }

    // MARK: - Fields

    /// Headings that start a free-text block.
    private static let blockTitles: Set<String> = [
        "Application Specific Information", "Application Specific Signatures", "Filtered syslog", "Kernel Triage",
        "Dyld Error Message", "Dyld Message", "VM Region Info", "External Modification Warnings",
        "External Modification Summary", "VM Region Summary", "System Profile", "Extra Information",
        "Error Formulating Crash Report", "Application Stats", "CrashDoctor Diagnosis", "Notable Addresses",
        "Stack Dump", "Custom Backtrace", "Handler crashed while reporting", "Last deallocated NSException",
    ]

    /// Header and exception keys; a line starting with one of them ends a continuation or a block.
    private static let knownKeys: Set<String> = [
        "Incident Identifier", "CrashReporter Key", "Anonymous UUID", "Beta Identifier", "Hardware Model",
        "Device Model", "UDID", "Process", "Path", "Identifier", "Version", "AppStoreTools", "AppVariant", "Beta",
        "Code Type", "Role", "Parent Process", "Responsible Process", "Responsible", "User ID", "Coalition",
        "Date/Time", "Launch Time", "OS Version", "Release Type", "Baseband Version", "Report Version",
        "Exception Type", "Exception Codes", "Exception Subtype", "Exception Message", "Exception Note",
        "Termination Signal", "Termination Reason", "Termination Description", "Terminating Process",
        "Triggered by Thread", "Crashed Thread", "Highlighted Thread", "Time Awake Since Boot", "Time Since Wake",
        "Sleep/Wake UUID", "System Integrity Protection", "Notes", "Framework Version", "Bug Type",
    ]

    private func startsKnownField(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        let key = String(line[..<colon])
        return Self.knownKeys.contains(key) || Self.blockTitles.contains(key)
    }

    /// `Key: value` with a key of letters, spaces and a few punctuation marks.
    static func keyValue(_ line: Substring) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { return nil }
        let key = line[..<colon]
        guard key.count <= 40, key.first?.isLetter == true,
            key.allSatisfy({
                $0.isLetter || $0.isNumber || $0 == " " || $0 == "/" || $0 == "-" || $0 == "(" || $0 == ")"
            })
        else { return nil }
        let value = line[line.index(after: colon)...].trimmingSpaces()
        return (String(key), value)
    }

    private mutating func field(_ key: String, _ value: String) {
        if Self.blockTitles.contains(key) || key.hasPrefix("Application Specific Backtrace")
            || key.hasSuffix("instruction stream") || key.hasPrefix("VM Regions Near")
        {
            report.blocks.append(CrashReport.Block(title: key, lines: value.isEmpty ? [] : [value]))
            mode = .block(report.blocks.count - 1)
            lastBlock = report.blocks.count - 1
            return
        }
        lastBlock = nil
        sawHeaderField = true
        mode = .header
        switch key {
        case "Incident Identifier": report.incidentID = value
        case "CrashReporter Key", "Anonymous UUID": report.crashReporterKey = value
        case "Beta Identifier": report.betaIdentifier = value
        case "Hardware Model": report.hardwareModel = value
        case "Process":
            let (name, pid) = Self.nameAndPid(value)
            report.process = name
            report.pid = pid
        case "Path": report.path = value
        case "Identifier": report.bundleId = value
        case "Version": setVersion(value)
        case "Code Type":
            let (type, suffix) = Self.splitParenthesis(value)
            report.codeType = type
            if let suffix { report.isTranslated = suffix == "Translated" }
        case "Role": report.role = value
        case "Parent Process":
            let (name, pid) = Self.nameAndPid(value)
            report.parentProcess = name
            report.parentPid = pid
        case "Responsible Process", "Responsible":
            let (name, pid) = Self.nameAndPid(value)
            report.responsibleProcess = name
            report.responsiblePid = pid
        case "Coalition":
            let (name, pid) = Self.nameAndPid(value)
            report.coalition = name
            report.coalitionId = pid
        case "Date/Time":
            report.date = AppleTimestamp(value)
            if report.date == nil { keep(key, value, "a date/time that is not in a known format") }
        case "Launch Time": report.launchTime = AppleTimestamp(value)
        case "OS Version": report.osVersion = value
        case "Release Type": report.releaseType = value
        case "Report Version": report.reportVersion = value
        case "Exception Type": exception { $0.type = value }
        case "Exception Codes":
            exception {
                // macOS 12 translations print the codes twice (symbolic, then raw): keep both.
                $0.codes = $0.codes.map { "\($0)\n\(value)" } ?? value
            }
        case "Exception Subtype": exception { $0.subtype = value }
        case "Exception Message": exception { $0.message = value }
        case "Exception Note": exception { $0.note = $0.note.map { "\($0)\n\(value)" } ?? value }
        case "Termination Signal": keep(key, value, nil)
        case "Termination Reason":
            termination { $0.raw = value }
            mode = .continuation(key)
        case "Termination Description":
            termination { $0.description = value }
            mode = .continuation(key)
        case "Terminating Process":
            let (name, pid) = Self.nameAndPid(value)
            termination {
                $0.byProcess = name
                $0.byPid = pid
            }
        case "Triggered by Thread", "Crashed Thread", "Highlighted Thread":
            let digits = value.prefix { $0.isNumber }
            report.crashedThread = Int(digits)
            if let queue = value.byteRange(of: "Dispatch queue: ") ?? value.byteRange(of: "Dispatch Queue: ") {
                keep("\(key) queue", String(value[queue.upperBound...]), nil)
            }
        default:
            keep(key, value, nil)
        }
    }

    private mutating func continueField(_ key: String, _ line: String) {
        if key == "Termination Reason" {
            termination { $0.raw = ($0.raw ?? "") + "\n" + line }
        } else if key == "Termination Description" {
            termination { $0.description = ($0.description ?? "") + "\n" + line }
        }
    }

    private mutating func keep(_ key: String, _ value: String, _ problem: String?) {
        if let problem { note("\(key): \(problem); kept verbatim") }
        unknown.append(JSONValue.Member(key: key, value: .string(value)))
    }

    private mutating func exception(_ change: (inout CrashReport.Exception) -> Void) {
        var value = report.exception ?? CrashReport.Exception()
        change(&value)
        report.exception = value
    }

    private mutating func termination(_ change: (inout CrashReport.Termination) -> Void) {
        var value = report.termination ?? CrashReport.Termination()
        change(&value)
        report.termination = value
    }

    /// `Version:` is `build (short)` up to iOS 14 and `short (build)` in iOS 15+ translations.
    private mutating func setVersion(_ value: String) {
        let (first, inner) = Self.splitParenthesis(value)
        guard let inner else {
            report.appVersion = first
            return
        }
        let modern: Bool
        if case .translatedText = report.sourceFormat {
            modern = true
        } else if let major = OSVersion(parsing: report.osVersion ?? "").major, report.platform != .macOS {
            modern = major >= 15
        } else {
            // macOS writes `short (build)`; old iOS `build (short)`: the one with dots is the short version.
            modern = first.containsBytes(".") || !inner.containsBytes(".")
        }
        report.appVersion = modern ? first : inner
        report.appBuild = modern ? inner : first
    }

    // MARK: - Threads

    private typealias ThreadHeader = (index: Int, crashed: Bool, attributed: Bool, rest: String)

    /// `Thread 0:`, `Thread 0 Crashed:`, `Thread 2 Attributed:`, `Thread 0 Crashed:: Dispatch queue: q`, and the
    /// `Thread N name:  …` lines (returned with index −1 − N so they are told apart).
    private func threadHeader(_ line: Substring) -> ThreadHeader? {
        guard line.hasPrefix("Thread ") else { return nil }
        let afterWord = line.dropFirst(7)
        let digits = afterWord.prefix { $0.isNumber }
        guard let index = Int(digits) else { return nil }
        var rest = afterWord.dropFirst(digits.count)
        if rest.hasPrefix(" name:") {
            let name = rest.dropFirst(6).trimmingSpaces()
            return (index: -1 - index, crashed: false, attributed: false, rest: name)
        }
        var crashed = false
        var attributed = false
        if rest.hasPrefix(" Crashed") {
            crashed = true
            rest = rest.dropFirst(8)
        } else if rest.hasPrefix(" Attributed") {
            attributed = true
            rest = rest.dropFirst(11)
        } else if rest.hasPrefix(" Highlighted") {
            rest = rest.dropFirst(12)
        }
        guard rest.hasPrefix(":") else { return nil }
        if rest.containsBytes("Thread State") || rest.containsBytes("crashed with") { return nil }
        rest = rest.dropFirst()
        if rest.hasPrefix(":") { rest = rest.dropFirst() }
        return (index: index, crashed: crashed, attributed: attributed, rest: rest.trimmingSpaces())
    }

    private mutating func startThread(_ header: ThreadHeader) {
        lastBlock = nil
        if header.index < 0 {
            pendingNames[-1 - header.index] = header.rest
            return
        }
        var thread = CrashReport.Thread(index: header.index, crashed: header.crashed, attributed: header.attributed)
        let (name, queue) = Self.nameAndQueue(pendingNames[header.index] ?? header.rest)
        thread.name = name
        thread.queue = queue
        if let existing = report.threads.firstIndex(where: { $0.index == header.index }) {
            report.threads[existing] = thread
        } else {
            report.threads.append(thread)
        }
        mode = .frames(header.index)
    }

    /// `tid_303  Dispatch queue: com.apple.main-thread` → name `tid_303`, queue `com.apple.main-thread`.
    static func nameAndQueue(_ text: String) -> (String?, String?) {
        guard let range = text.byteRange(of: "Dispatch queue:") else {
            return (text.isEmpty ? nil : text, nil)
        }
        let name = text[..<range.lowerBound].trimmingSpaces()
        let queue = text[range.upperBound...].trimmingSpaces()
        return (name.isEmpty ? nil : name, queue.isEmpty ? nil : queue)
    }

    private mutating func appendFrame(_ frame: CrashReport.Frame, thread: Int) {
        guard let position = report.threads.firstIndex(where: { $0.index == thread }) else { return }
        report.threads[position].frames.append(frame)
    }

    /// One frame line: index, image (may contain spaces), address, then the location.
    static func parseFrame(_ line: Substring, raw: Substring) -> CrashReport.Frame? {
        let digits = line.prefix { $0.isNumber }
        guard let index = Int(digits), digits.count < 6 else { return nil }
        var rest = line.dropFirst(digits.count)
        guard let first = rest.first, first == " " || first == "\t" else { return nil }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        // The address is the first whitespace-preceded token that is 0x-hex, or 8+ zeros (no 0x).
        var cursor = rest.startIndex
        var addressRange: Range<Substring.Index>?
        while cursor < rest.endIndex {
            let tokenStart = cursor
            let tokenEnd = rest[cursor...].firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
            let token = rest[tokenStart..<tokenEnd]
            let precededBySpace = tokenStart == rest.startIndex ? false : true
            if precededBySpace, isAddressToken(token) {
                addressRange = tokenStart..<tokenEnd
                break
            }
            cursor = rest[tokenEnd...].firstIndex { $0 != " " && $0 != "\t" } ?? rest.endIndex
        }
        guard let range = addressRange else { return nil }
        let image = rest[..<range.lowerBound].trimmingSpaces()
        let token = rest[range]
        let address = token.hasPrefix("0x") ? HexValue(parsing: token) : HexValue(parsing: token, hex: true)
        var frame = CrashReport.Frame(index: index, image: image.isEmpty ? nil : image, address: address)
        frame.raw = String(raw)
        parseLocation(rest[range.upperBound...].trimmingSpaces(), into: &frame)
        return frame
    }

    private static func isAddressToken(_ token: Substring) -> Bool {
        if token.hasPrefix("0x") {
            return token.count >= 3 && token.dropFirst(2).allSatisfy(\.isHexDigit)
        }
        return token.count >= 8 && token.allSatisfy { $0 == "0" }
    }

    /// Peels `(file:line[:col])`, `(in Module)` and `+ offset` from the right of a location.
    static func parseLocation(_ text: String, into frame: inout CrashReport.Frame) {
        var rest = Substring(text)
        if let comment = rest.byteRange(of: "\t//") ?? rest.byteRange(of: " // ") {
            rest = rest[..<comment.lowerBound]
        }
        rest = rest.trimmingTrailingSpaces()
        if rest.hasPrefix("+ ") {
            // `0x193c9c000 + 0xe0c`: the address column was the image base, the offset follows.
            let number = rest.dropFirst(2).trimmingSpaces()
            let value = number.hasPrefix("0x") ? HexValue(parsing: Substring(number))?.value : UInt64(number)
            if let value, let base = frame.address?.value {
                frame.imageOffset = value
                let (sum, overflow) = base.addingReportingOverflow(value)
                frame.address = overflow ? frame.address : HexValue(sum)
            }
            return
        }
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") {
            let inner = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
            let parts = inner.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count >= 2, let last = parts.last, let lineNumber = Int(last),
                !inner.hasPrefix("in ")
            {
                if parts.count >= 3, let lineValue = Int(parts[parts.count - 2]) {
                    frame.file = parts.dropLast(2).joined(separator: ":")
                    frame.line = lineValue
                    frame.column = lineNumber
                } else {
                    frame.file = parts.dropLast().joined(separator: ":")
                    frame.line = lineNumber
                }
                rest = rest[..<open].trimmingTrailingSpaces()
            }
        }
        // KSCrash side-by-side: `0x7fff51e3a000 + 22694 (__psynch_mutexwait + 10)`.
        if rest.hasSuffix(")"), let open = rest.byteRangeLast(of: " ("), rest.hasPrefix("0x") {
            let outer = rest[..<open.lowerBound]
            let inner = rest[open.upperBound..<rest.index(before: rest.endIndex)]
            if let plus = outer.byteRange(of: " + "), let offset = UInt64(outer[plus.upperBound...].trimmingSpaces()) {
                frame.imageOffset = offset
                if let innerPlus = inner.byteRangeLast(of: " + "),
                    let symbolOffset = UInt64(inner[innerPlus.upperBound...].trimmingSpaces())
                {
                    frame.symbol = inner[..<innerPlus.lowerBound].trimmingSpaces()
                    frame.symbolOffset = symbolOffset
                } else {
                    frame.symbol = inner.trimmingSpaces()
                }
                return
            }
        }
        var module: String?
        if let range = rest.byteRange(of: " (in "), let close = rest[range.upperBound...].firstIndex(of: ")") {
            module = String(rest[range.upperBound..<close])
            rest = rest[..<range.lowerBound] + rest[rest.index(after: close)...]
        }
        // `symbol + 28`; the last `+ N` wins (Apple sometimes inserts a second offset).
        if let plus = rest.byteRangeLast(of: " + ") {
            let number = rest[plus.upperBound...].trimmingSpaces()
            let value = number.hasPrefix("0x") ? HexValue(parsing: Substring(number))?.value : UInt64(number)
            if let value {
                let symbol = rest[..<plus.lowerBound].trimmingSpaces()
                if symbol.allSatisfy(\.isHexDigit)
                    || (symbol.hasPrefix("0x") && symbol.dropFirst(2).allSatisfy(\.isHexDigit))
                {
                    // Unsymbolicated: `0x1bd149000 + 2378352` (image base + offset), or `0 + 0` for null frames.
                    frame.imageOffset = value
                } else if !symbol.isEmpty {
                    frame.symbol = symbol
                    frame.symbolOffset = value
                }
                if frame.image == nil, let module { frame.image = module }
                return
            }
        }
        let symbol = rest.trimmingSpaces()
        if !symbol.isEmpty, symbol != "???" { frame.symbol = symbol }
        if frame.image == nil, let module { frame.image = module }
    }

    // MARK: - Last Exception Backtrace

    /// Either the raw `(0x… 0x…)` list or frame lines; returns false for a line that is neither.
    @discardableResult
    private mutating func lastExceptionLine(_ line: Substring) -> Bool {
        if line.hasPrefix("(") {
            let inner = line.dropFirst().prefix { $0 != ")" }
            var frames = report.lastExceptionBacktrace ?? []
            for token in inner.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if let address = HexValue(parsing: token) {
                    frames.append(CrashReport.Frame(index: frames.count, address: address))
                }
            }
            report.lastExceptionBacktrace = frames
            return true
        }
        if let frame = Self.parseFrame(line, raw: line) {
            report.lastExceptionBacktrace = (report.lastExceptionBacktrace ?? []) + [frame]
            return true
        }
        return false
    }

    // MARK: - Registers

    private mutating func startRegisters(_ line: Substring) {
        let digits = line.dropFirst(7).prefix { $0.isNumber }
        guard let index = Int(digits) else { return }
        var flavor = line
        if let with = line.byteRange(of: " with ") { flavor = line[with.upperBound...] }
        let flavorText = String(flavor.dropLast()).trimmingSpaces()
        if let position = report.threads.firstIndex(where: { $0.index == index }) {
            report.threads[position].registerFlavor = flavorText
            report.threads[position].registers = []
        } else {
            report.threads.append(CrashReport.Thread(index: index, registerFlavor: flavorText, registers: []))
        }
        mode = .registers(index)
    }

    /// `x0: 0x0000000000000001   x1: 0x…`, with optional text after a value (`esr: 0xf2000001  Address size fault`).
    private mutating func registerLine(_ line: Substring, thread: Int) -> Bool {
        guard let position = report.threads.firstIndex(where: { $0.index == thread }) else { return false }
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var registers: [CrashReport.Register] = []
        var k = 0
        var trailing: [Substring] = []
        while k < tokens.count {
            let token = tokens[k]
            if token.hasSuffix(":"), k + 1 < tokens.count, let value = HexValue(parsing: tokens[k + 1]) {
                if !trailing.isEmpty, !registers.isEmpty {
                    registers[registers.count - 1].description = trailing.joined(separator: " ")
                }
                trailing = []
                registers.append(CrashReport.Register(name: String(token.dropLast()), value: value))
                k += 2
            } else {
                trailing.append(token)
                k += 1
            }
        }
        guard !registers.isEmpty else { return false }
        if !trailing.isEmpty { registers[registers.count - 1].description = trailing.joined(separator: " ") }
        report.threads[position].registers = (report.threads[position].registers ?? []) + registers
        return true
    }

    // MARK: - Binary images

    /// `0x102aec000 - 0x102b03fff TouchCanvas arm64  <fe77…> /path`, or the macOS
    /// `0x1025e5000 - 0x1025e6ffb +com.example.App (1.0 - 1) <5ED9BD63-…> /path` form.
    static func parseImage(_ line: Substring) -> CrashReport.BinaryImage? {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard parts.count >= 3, let base = HexValue(parsing: parts[0]), parts[1] == "-" else { return nil }
        let end = HexValue(parsing: parts[2])
        var rest = parts.count > 3 ? parts[3].trimmingSpaces()[...] : ""
        var isApp = false
        if rest.hasPrefix("+") {
            isApp = true
            rest = rest.dropFirst()
        }
        var uuid: String?
        var path: String?
        var descriptor = rest
        if let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            uuid = normalizeUUID(String(rest[rest.index(after: open)..<close]))
            let after = rest[rest.index(after: close)...].trimmingSpaces()
            path = after.isEmpty ? nil : after
            descriptor = rest[..<open]
        }
        descriptor = descriptor.trimmingTrailingSpaces()
        var version: String?
        var arch: String?
        if descriptor.hasSuffix(")"), let open = descriptor.lastIndex(of: "(") {
            version = String(descriptor[descriptor.index(after: open)..<descriptor.index(before: descriptor.endIndex)])
            descriptor = descriptor[..<open].trimmingTrailingSpaces()
        }
        if let space = descriptor.lastIndex(of: " ") {
            let candidate = descriptor[descriptor.index(after: space)...]
            if architectures.contains(String(candidate)) {
                arch = String(candidate)
                descriptor = descriptor[..<space].trimmingTrailingSpaces()
            }
        }
        let name = descriptor.trimmingSpaces()
        return CrashReport.BinaryImage(
            name: name.isEmpty ? nil : name,
            base: base,
            end: end,
            uuid: uuid,
            arch: arch,
            path: path == "???" ? nil : path,
            version: version == "*" ? nil : version,
            isApp: isApp
        )
    }

    private static let architectures: Set<String> = [
        "arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "armv6", "x86_64", "x86_64h", "i386", "arm",
    ]

    /// 32 lower-case hex digits without dashes; other text is kept lower-cased.
    static func normalizeUUID(_ text: String) -> String {
        text.lowercased().filter { $0 != "-" }
    }

    // MARK: - Helpers

    /// `TouchCanvas [1052]` → (`TouchCanvas`, 1052); names may contain spaces.
    static func nameAndPid(_ value: String) -> (String?, Int64?) {
        guard value.hasSuffix("]"), let open = value.lastIndex(of: "[") else {
            return (value.isEmpty ? nil : value, nil)
        }
        let pid = Int64(value[value.index(after: open)..<value.index(before: value.endIndex)])
        let name = value[..<open].trimmingSpaces()
        return (name.isEmpty ? nil : name, pid)
    }

    /// `X86-64 (Native)` → (`X86-64`, `Native`); `12 (1.0.4)` → (`12`, `1.0.4`).
    static func splitParenthesis(_ value: String) -> (String, String?) {
        guard value.hasSuffix(")"), let open = value.lastIndex(of: "(") else { return (value, nil) }
        let inner = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
        return (value[..<open].trimmingSpaces(), inner)
    }

    private mutating func note(_ message: String) {
        diagnostics.append(Diagnostic(.note, message, at: SourceLocation(line: lineNumber)))
    }

    // MARK: - End

    private mutating func finish() {
        for (index, name) in pendingNames where !report.threads.contains(where: { $0.index == index }) {
            let (threadName, queue) = Self.nameAndQueue(name)
            report.threads.append(CrashReport.Thread(index: index, name: threadName, queue: queue))
        }
        report.threads.sort { $0.index < $1.index }
        if let crashed = report.crashedThread, !report.threads.isEmpty,
            !report.threads.contains(where: { $0.index == crashed }),
            let marked = report.threads.first(where: { $0.crashed })
        {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the header names thread \(crashed) as crashed, but it is not listed; thread \(marked.index) is "
                        + "marked Crashed, so that one is used",
                    at: nil
                )
            )
            report.crashedThread = marked.index
        }
        if let crashed = report.crashedThread {
            for k in report.threads.indices where report.threads[k].index == crashed && !report.threads[k].attributed {
                report.threads[k].crashed = true
            }
        } else {
            report.crashedThread = report.threads.first { $0.crashed || $0.attributed }?.index
        }
        if !unknown.isEmpty { report.unknownKeys = .object(unknown) }
        let unparsed = unknown.filter { $0.key.hasPrefix("unparsed line ") }.count
        if unparsed > 0 {
            diagnostics.append(
                Diagnostic(
                    .note,
                    "\(unparsed) line(s) matched no known field, block or frame; kept verbatim in unknownKeys",
                    at: nil
                )
            )
        }
        if sawHeaderField, report.threads.isEmpty, report.exception == nil, report.binaryImages.isEmpty {
            report.isPartial = true
            diagnostics.append(
                Diagnostic(.warning, "the report has only its header: no exception, threads or binary images", at: nil)
            )
        }
        if !sawHeaderField || report.process == nil {
            report.isPartial = true
            if report.sourceFormat == .text { report.sourceFormat = .fragment }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}

extension Substring {
    /// The substring without trailing spaces and tabs.
    func trimmingTrailingSpaces() -> Substring {
        var result = self
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
