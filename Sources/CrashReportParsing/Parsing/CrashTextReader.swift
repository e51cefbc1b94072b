import APMInspectCore
import ByteAccess

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
        /// Register lines under a `Thread State` heading that names no thread (`PPC Thread State:`): they are the
        /// crashed thread's, which ``finish()`` knows.
        case bareRegisters(Int)
        case images
        case done
    }

    var diagnostics: [Diagnostic] = []
    private var report: CrashReport
    private var mode = Mode.header
    private var unknown: [JSONValue.Member] = []
    private var pendingNames: [Int: String] = [:]
    /// The report's bytes, which frames' raw lines point into.
    private var shared: CrashReport.SharedText?
    /// The image names frames have used so far, shared by the frames that repeat them.
    private var imageNames = FrameImageNames()
    private var sawHeaderField = false
    private var lineNumber = 0
    /// The block that text after a blank line may still belong to (VM Region Summary tables, instruction streams).
    private var lastBlock: Int?
    private let origin: TextOrigin
    /// What the limits left out.
    private let tally: CrashLimitTally
    /// Whether a `Binary Images:` heading was read: Apple's text reports end with that section (or `EOF`).
    private var sawImagesHeading = false
    /// The last line's number and byte offset when the file ends inside it (no line break after it).
    private var unterminatedLine: (number: Int, byteOffset: Int)?
    /// The number of the last line with text on it.
    private var lastTextLine = 0
    /// Whether that last line, read inside the Binary Images section, was read as an image.
    private var unterminatedImage: Bool?
    /// The thread whose header came past ``CrashParseLimits/maxThreads``: its frame lines are counted only.
    private var skippedThread: Int?
    /// Whether this reads a part of a report rather than a whole one (KSCrash's recrash report after `Handler
    /// crashed while reporting:`): a part has no header and no images of its own, and is not a fragment or cut short
    /// for lacking them.
    private let isSection: Bool
    /// Register blocks under a heading that names no thread, in order: the heading as written, the register state it
    /// names (`PPC Thread State`), its registers and its lines as written.
    private var bareStates: [(heading: String, flavor: String, registers: [CrashReport.Register], lines: [String])] = []
    /// How far the first `Application Specific Information` heading is indented (a report pasted indented): its
    /// continuation lines keep the indentation beyond that.
    private var asiIndent: Int?
    /// How many blanks the line being read starts with.
    private var lineIndent = 0
    /// Whether an `EOF` line was read: a whole report's text ends there (KSCrash writes its extras after it).
    private var sawEOF = false

    /// A reader of a whole report, or with `isSection` of a part of one (see ``isSection``).
    init(
        format: CrashReport.SourceFormat,
        header: IPSHeader?,
        origin: TextOrigin,
        limits: CrashParseLimits = CrashParseLimits(),
        isSection: Bool = false
    ) {
        self.report = CrashReport(sourceFormat: format, header: header)
        self.origin = origin
        self.tally = CrashLimitTally(limits)
        self.isSection = isSection
    }

    /// Reads every line of the UTF-8 `body` (invalid sequences are repaired in the values kept) and returns the model.
    ///
    /// The file's bytes are read in place: no `String` of the whole report is made, and frames keep their raw lines
    /// as ranges of these bytes.
    mutating func read(body: [UInt8]) -> CrashReport {
        shared = CrashReport.SharedText(body)
        return body.withBorrowedBytes { read(bytes: $0) }
    }

    private mutating func read(bytes: BorrowedBytes) -> CrashReport {
        let all = TextBytes(bytes)
        var start = all.hasPrefix("\u{FEFF}") ? 3 : 0
        var offset = 0
        // Lines are split on the bytes, and every line is read as bytes: see ``TextBytes``.
        while start <= all.count {
            let newline = all.firstIndex(of: 0x0A, from: start) ?? all.count
            var end = newline
            if end > start, all[end - 1] == 0x0D { end -= 1 }
            lineNumber = origin.line + offset
            if end - start > Self.maxLineBytes {
                let kept = Self.utf8Boundary(all, start, start + Self.maxLineBytes)
                noteCutLine(length: end - start, kept: kept - start, byteOffset: origin.byteOffset + start)
                end = kept
            }
            if end > start { lastTextLine = lineNumber }
            if newline == all.count, end > start {
                unterminatedLine = (lineNumber, origin.byteOffset + start)
                let images = report.binaryImages.count
                consume(all.slice(start, end))
                if case .images = mode { unterminatedImage = report.binaryImages.count > images }
            } else {
                consume(all.slice(start, end))
            }
            offset += 1
            start = newline + 1
            if case .done = mode {
                // KSCrash's Apple-format text writes its extras (`Extra Information:`, the stack dump, notable
                // addresses, CrashDoctor's diagnosis) after the `EOF` that ends Apple's layout: they are read too.
                guard Self.extrasFollow(all, from: start) else { break }
                mode = .header
            }
        }
        finish()
        return report
    }

    /// Whether the first line with text from `start` on is KSCrash's `Extra Information:` heading.
    private static func extrasFollow(_ all: TextBytes, from start: Int) -> Bool {
        var k = start
        while k < all.count, TextBytes.isBlank(all[k]) || all[k] == 0x0A || all[k] == 0x0D { k += 1 }
        return k < all.count && all.suffix(from: k).hasPrefix("Extra Information:")
    }

    /// The longest line read, in bytes: 64 KiB.
    ///
    /// Every text the model keeps (a symbol, a raw frame line, a header value, an unparsed line, the signature's
    /// frames) is a piece of one line, and each is written out again by every output: without a cap a 1 GB line
    /// cost several times its size. Apple's longest lines (demangled Swift symbols, exception reasons) stay under
    /// a few KiB; the rest of a longer line is skipped, with a warning naming the line.
    static let maxLineBytes = 1 << 16

    /// Lines cut so far; the first few are named one by one, the rest counted in one diagnostic at the end.
    private var cutLines = 0
    private static let namedCutLines = 10

    /// `proposed`, moved back to the start of the UTF-8 sequence it falls inside, so the kept text stays whole.
    private static func utf8Boundary(_ all: TextBytes, _ start: Int, _ proposed: Int) -> Int {
        var cut = proposed
        var steps = 0
        while cut > start, steps < 4, cut < all.count, all[cut] & 0xC0 == 0x80 {
            cut -= 1
            steps += 1
        }
        return cut
    }

    private mutating func noteCutLine(length: Int, kept: Int, byteOffset: Int) {
        cutLines += 1
        guard cutLines <= Self.namedCutLines else { return }
        diagnostics.append(
            Diagnostic(
                .warning,
                .crashLineTooLong,
                "line \(lineNumber) is \(length) bytes long; only its first \(kept) bytes were read (lines are cut at "
                    + "\(Self.maxLineBytes) bytes)",
                at: SourceLocation(byteOffset: byteOffset, line: lineNumber, column: 1)
            )
        )
    }

    // MARK: - Dispatch

    private mutating func consume(_ raw: TextBytes) {
        let line = raw.droppingLeadingBlanks()
        lineIndent = raw.count - line.count
        if line.isEmpty {
            endOfBlock()
            return
        }
        if line.equals("EOF") {
            mode = .done
            sawEOF = true
            return
        }
        // Frame and image lines start with a digit: one byte rules out every heading.
        let head = line.first ?? 0
        let startsWithThread = head == 0x54 && line.hasPrefix("Thread ")
        if startsWithThread, let thread = threadHeader(line) {
            startThread(thread)
            return
        }
        if head == 0x42, line.hasPrefix("Binary Images"), line.hasSuffix(":") {
            lastBlock = nil
            mode = .images
            sawImagesHeading = true
            report.binaryImages.reserveCapacity(64)
            return
        }
        if head == 0x4C, line.hasPrefix("Last Exception Backtrace:") {
            mode = .lastExceptionBacktrace
            report.lastExceptionBacktrace = report.lastExceptionBacktrace ?? []
            var rest = line.dropFirst(25)
            while rest.first == 0x20 { rest = rest.dropFirst() }
            if !rest.isEmpty { lastExceptionLine(rest) }
            return
        }
        switch mode {
        case .frames(let thread):
            if let parts = Self.frameLine(line) {
                appendFrame(parts, raw: raw, thread: thread)
                return
            }
        case .lastExceptionBacktrace:
            if lastExceptionLine(line) { return }
        case .registers(let thread):
            if registerLine(line, thread: thread) { return }
        case .bareRegisters(let state):
            if let registers = Self.registers(in: line) {
                bareStates[state].registers += registers
                bareStates[state].lines.append(raw.string)
                return
            }
        case .images:
            if report.binaryImages.count < tally.limits.maxBinaryImages {
                if Self.parseImage(line, shared: shared, into: &report.binaryImages) { return }
            } else {
                var past: [CrashReport.BinaryImage] = []
                if Self.parseImage(line, shared: nil, into: &past) {
                    tally.skipImages(1)
                    return
                }
            }
        case .block(let index):
            if !startsKnownField(line) {
                report.blocks[index].append(line: raw.string)
                return
            }
        case .continuation(let key):
            if !startsKnownField(line) && !line.hasSuffix(":") {
                continueField(key, line.string)
                return
            }
        case .header, .done:
            break
        }
        if line.hasSuffix(":"), line.contains("Thread State") {
            if startsWithThread, line.dropFirst(7).leadingDigitCount > 0 {
                startRegisters(line)
            } else {
                // `Thread State:`, `PPC Thread State:`, `Unknown thread crashed with ARM Thread State (64-bit):`:
                // a register block that names no thread, not header fields.
                startBareRegisters(line)
            }
            return
        }
        if let index = lastBlock, index < report.blocks.count, !startsKnownField(line) {
            // Free text after a blank line inside a block (tables, hex dumps, the CPU lines under an old
            // watchdog's Application Specific Information): keep the blank line too.
            report.blocks[index].append(line: "")
            report.blocks[index].append(line: raw.string)
            mode = .block(index)
            return
        }
        if let (key, value) = Self.keyValue(line) {
            field(key, value)
            return
        }
        if case .frames = mode {
            // A line inside a thread that is not a frame: keep it rather than drop it.
            keepUnparsed(
                raw,
                note: (.crashBacktraceLineNotFrame, "a line in a backtrace is not a frame; kept in unknownKeys")
            )
            return
        }
        if report.threads.isEmpty, let parts = Self.frameLine(line) {
            // Frames before any thread header: a pasted fragment of a backtrace.
            startThread((index: 0, crashed: false, attributed: false, rest: ""))
            appendFrame(parts, raw: raw, thread: 0)
            return
        }
        keepUnparsed(raw, note: nil)
    }

    /// Keeps a line the reader does not understand in unknownKeys, with its note, while the limits admit it
    /// (``CrashParseLimits/maxUnknownEntries``): past them lines are counted, and one diagnostic says how many.
    private mutating func keepUnparsed(_ raw: TextBytes, note: (code: Diagnostic.Code, message: String)?) {
        let key = "unparsed line \(lineNumber)"
        guard tally.admitUnknown(bytes: key.utf8.count + raw.count) else { return }
        if let note { self.note(note.code, note.message) }
        unknown.append(JSONValue.Member(key: key, value: .string(raw.string)))
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

    private static let asiTitle = "Application Specific Information"

    /// Headings that start a free-text block.
    private static let blockTitles: Set<String> = [
        "Application Specific Information", "Application Specific Signatures", "Filtered syslog", "Kernel Triage",
        "Dyld Error Message", "Dyld Message", "VM Region Info", "External Modification Warnings",
        "External Modification Summary", "VM Region Summary", "System Profile", "Extra Information",
        "Error Formulating Crash Report", "Application Stats", "CrashDoctor Diagnosis", "Notable Addresses",
        "Stack Dump", "Custom Backtrace", "Handler crashed while reporting", "Last deallocated NSException",
        "Recrash Diagnosis",
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

    /// What a known key is, for ``field(_:_:)``: one hash lookup instead of comparing the key with every case.
    private enum FieldKey {
        case block, incident, crashReporterKey, beta, hardwareModel, process, path, identifier, version, codeType
        case role, parentProcess, responsible, coalition, dateTime, launchTime, osVersion, releaseType
        case reportVersion, exceptionType, exceptionCodes, exceptionSubtype, exceptionMessage, exceptionNote
        case terminationReason, terminationDescription, terminatingProcess, crashedThread
        /// Known (it ends a block), kept verbatim.
        case other
    }

    /// Every known key and block title, by what it is.
    private static let fieldKeys: [String: FieldKey] = {
        var table: [String: FieldKey] = [:]
        for key in knownKeys { table[key] = .other }
        for title in blockTitles { table[title] = .block }
        let cases: [(FieldKey, [String])] = [
            (.incident, ["Incident Identifier"]), (.crashReporterKey, ["CrashReporter Key", "Anonymous UUID"]),
            (.beta, ["Beta Identifier"]), (.hardwareModel, ["Hardware Model"]), (.process, ["Process"]),
            (.path, ["Path"]), (.identifier, ["Identifier"]), (.version, ["Version"]), (.codeType, ["Code Type"]),
            (.role, ["Role"]), (.parentProcess, ["Parent Process"]),
            (.responsible, ["Responsible Process", "Responsible"]), (.coalition, ["Coalition"]),
            (.dateTime, ["Date/Time"]), (.launchTime, ["Launch Time"]), (.osVersion, ["OS Version"]),
            (.releaseType, ["Release Type"]), (.reportVersion, ["Report Version"]),
            (.exceptionType, ["Exception Type"]), (.exceptionCodes, ["Exception Codes"]),
            (.exceptionSubtype, ["Exception Subtype"]), (.exceptionMessage, ["Exception Message"]),
            (.exceptionNote, ["Exception Note"]), (.terminationReason, ["Termination Reason"]),
            (.terminationDescription, ["Termination Description"]), (.terminatingProcess, ["Terminating Process"]),
            (.crashedThread, ["Triggered by Thread", "Crashed Thread", "Highlighted Thread"]),
        ]
        for (kind, keys) in cases { for key in keys { table[key] = kind } }
        // A known key that names a block by its shape opens one, as ``field(_:_:)`` would decide for it.
        for key in table.keys where namesBlock(key) { table[key] = .block }
        return table
    }()

    /// Keys that open a block by their shape (numbered backtraces, instruction streams, VM regions near an
    /// address), whatever follows the words.
    private static func namesBlock(_ key: String) -> Bool {
        key.utf8.starts(with: "Application Specific Backtrace".utf8)
            || key.utf8.reversed().starts(with: "instruction stream".utf8.reversed())
            || key.utf8.starts(with: "VM Regions Near".utf8)
    }

    private func startsKnownField(_ line: TextBytes) -> Bool {
        // The longest known key has 31 bytes: longer prefixes need no String to be ruled out.
        guard let colon = line.firstIndex(of: 0x3A), colon <= 40 else { return false }
        return Self.fieldKeys[line.prefix(colon).string] != nil
    }

    /// `Key: value` with a key of letters, digits, spaces and a few punctuation marks.
    static func keyValue(_ line: TextBytes) -> (String, String)? {
        guard let colon = line.firstIndex(of: 0x3A), colon > 0, colon <= 40 else { return nil }
        let key = line.prefix(colon)
        guard let first = key.first, TextBytes.isLetter(first),
            key.allSatisfy({
                TextBytes.isLetter($0) || TextBytes.isDigit($0) || $0 == 0x20 || $0 == 0x2F || $0 == 0x2D
                    || $0 == 0x28 || $0 == 0x29
            })
        else { return nil }
        return (key.string, line.suffix(from: colon + 1).trimmedString)
    }

    private mutating func field(_ key: String, _ value: String) {
        let kind = Self.fieldKeys[key]
        // Known keys have their shape decided in the table: only the others are tested (for every header line, the
        // tests cost more than the lookup).
        if kind == .block || kind == nil && Self.namesBlock(key) {
            if asiIndent == nil, key == Self.asiTitle { asiIndent = lineIndent }
            report.blocks.append(CrashReport.Block(title: key, lines: value.isEmpty ? [] : [value]))
            mode = .block(report.blocks.count - 1)
            lastBlock = report.blocks.count - 1
            return
        }
        lastBlock = nil
        sawHeaderField = true
        mode = .header
        switch kind {
        case .incident: report.incidentID = value
        case .crashReporterKey: report.crashReporterKey = value
        case .beta: report.betaIdentifier = value
        case .hardwareModel: report.hardwareModel = value
        case .process:
            let (name, pid) = Self.nameAndPid(value)
            report.process = name
            report.pid = pid
        case .path: report.path = value
        case .identifier: report.bundleId = value
        case .version: setVersion(value)
        case .codeType:
            let (type, suffix) = Self.splitParenthesis(value)
            report.codeType = type
            if let suffix { report.isTranslated = suffix == "Translated" }
        case .role: report.role = value
        case .parentProcess:
            let (name, pid) = Self.nameAndPid(value)
            report.parentProcess = name
            report.parentPid = pid
        case .responsible:
            let (name, pid) = Self.nameAndPid(value)
            report.responsibleProcess = name
            report.responsiblePid = pid
        case .coalition:
            let (name, pid) = Self.nameAndPid(value)
            report.coalition = name
            report.coalitionId = pid
        case .dateTime:
            report.date = AppleTimestamp(value)
            if report.date == nil {
                keep(key, value, (.crashUnknownDateFormat, "a date/time that is not in a known format"))
            }
        case .launchTime: report.launchTime = AppleTimestamp(value)
        case .osVersion: report.osVersion = value
        case .releaseType: report.releaseType = value
        case .reportVersion: report.reportVersion = value
        case .exceptionType: exception { $0.type = value }
        case .exceptionCodes:
            exception {
                // macOS 12 translations print the codes twice (symbolic, then raw): keep both.
                $0.codes = $0.codes.map { "\($0)\n\(value)" } ?? value
            }
        case .exceptionSubtype: exception { $0.subtype = value }
        case .exceptionMessage: exception { $0.message = value }
        case .exceptionNote: exception { $0.note = $0.note.map { "\($0)\n\(value)" } ?? value }
        case .terminationReason:
            termination { $0.raw = value }
            mode = .continuation(key)
        case .terminationDescription:
            termination { $0.description = value }
            mode = .continuation(key)
        case .terminatingProcess:
            let (name, pid) = Self.nameAndPid(value)
            termination {
                $0.byProcess = name
                $0.byPid = pid
            }
        case .crashedThread:
            let digits = value.prefix { $0.isNumber }
            report.crashedThread = Int(digits)
            if let queue = value.byteRange(of: "Dispatch queue: ") ?? value.byteRange(of: "Dispatch Queue: ") {
                keep("\(key) queue", String(value[queue.upperBound...]), nil)
            }
        case .block, .other, nil:
            // `Termination Signal` and the other known keys without a field of their own are kept as written.
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

    private mutating func keep(_ key: String, _ value: String, _ problem: (code: Diagnostic.Code, text: String)?) {
        guard tally.admitUnknown(bytes: key.utf8.count + value.utf8.count) else { return }
        if let problem { note(problem.code, "\(key): \(problem.text); kept verbatim") }
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
    private func threadHeader(_ line: TextBytes) -> ThreadHeader? {
        guard line.hasPrefix("Thread ") else { return nil }
        let afterWord = line.dropFirst(7)
        let digits = afterWord.leadingDigitCount
        guard digits > 0, let index = afterWord.prefix(digits).int else { return nil }
        var rest = afterWord.dropFirst(digits)
        if rest.hasPrefix(" name:") {
            return (index: -1 - index, crashed: false, attributed: false, rest: rest.dropFirst(6).trimmedString)
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
        if rest.contains("Thread State") || rest.contains("crashed with") { return nil }
        rest = rest.dropFirst()
        if rest.hasPrefix(":") { rest = rest.dropFirst() }
        return (index: index, crashed: crashed, attributed: attributed, rest: rest.trimmedString)
    }

    private mutating func startThread(_ header: ThreadHeader) {
        lastBlock = nil
        if header.index < 0 {
            pendingNames[-1 - header.index] = header.rest
            return
        }
        let existing = report.threads.firstIndex(where: { $0.index == header.index })
        skippedThread = nil
        if existing == nil, !tally.admitThread(held: report.threads.count) {
            skippedThread = header.index
            mode = .frames(header.index)
            return
        }
        var thread = CrashReport.Thread(index: header.index, crashed: header.crashed, attributed: header.attributed)
        // Growing the array 1, 2, 4 … for every backtrace cost more than the frames; 16 covers most threads.
        thread.frames.reserveCapacity(16)
        let (name, queue) = Self.nameAndQueue(pendingNames[header.index] ?? header.rest)
        thread.name = name
        thread.queue = queue
        if let existing {
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

    private mutating func appendFrame(_ parts: FrameLine, raw: TextBytes, thread: Int) {
        if skippedThread == thread {
            tally.skipFramesOfSkippedThread(1)
            return
        }
        // Frames arrive for the thread started last: look there before searching.
        let position: Int
        if let last = report.threads.indices.last, report.threads[last].index == thread {
            position = last
        } else if let found = report.threads.firstIndex(where: { $0.index == thread }) {
            position = found
        } else {
            return
        }
        guard tally.admitFrames(1, held: report.threads[position].frames.count) == 1 else { return }
        report.threads[position].frames.append(CrashReport.Frame(index: parts.index))
        let slot = report.threads[position].frames.count - 1
        Self.fill(
            &report.threads[position].frames[slot],
            from: parts,
            raw: raw,
            shared: shared,
            imageNames: &imageNames
        )
    }

    /// One frame line (see ``parseFrame(_:raw:shared:)``), for callers that hold `Substring`s.
    static func parseFrame(_ line: Substring, raw: Substring) -> CrashReport.Frame? {
        var lineText = String(line)
        var rawText = String(raw)
        return lineText.withBorrowedUTF8 { lineBytes in
            rawText.withBorrowedUTF8 { rawBytes in
                parseFrame(TextBytes(lineBytes), raw: TextBytes(rawBytes), shared: nil)
            }
        }
    }

    /// One frame line: index, image (may contain spaces), address, then the location.
    ///
    /// With `shared` (the bytes `raw` is a window on), the raw line is kept as a range of them; without, as text.
    static func parseFrame(_ line: TextBytes, raw: TextBytes, shared: CrashReport.SharedText?) -> CrashReport.Frame? {
        guard let parts = frameLine(line) else { return nil }
        var frame = CrashReport.Frame(index: parts.index)
        var imageNames = FrameImageNames()
        fill(&frame, from: parts, raw: raw, shared: shared, imageNames: &imageNames)
        return frame
    }

    /// What a frame line holds before it is turned into a frame.
    struct FrameLine {
        let index: Int
        /// The image name as written (may contain spaces; empty when there is none).
        let image: TextBytes
        let address: HexValue?
        /// What follows the address: symbol and offset, file and line, or `+ offset`.
        let location: TextBytes
    }

    /// Recognises a frame line: index, image (may contain spaces), address, then the location.
    static func frameLine(_ line: TextBytes) -> FrameLine? {
        let digits = line.leadingDigitCount
        guard digits > 0, digits < 6, let index = line.prefix(digits).int else { return nil }
        var rest = line.dropFirst(digits)
        guard let first = rest.first, TextBytes.isBlank(first) else { return nil }
        rest = rest.droppingLeadingBlanks()
        // The address is the first whitespace-preceded token that is 0x-hex, or 8+ zeros (no 0x). Both forms start
        // with `0`, so only the zeros that begin a token are candidates.
        var addressRange: Range<Int>?
        var from = 1
        while let tokenStart = rest.firstIndex(of: 0x30, from: from) {
            from = tokenStart + 1
            guard TextBytes.isBlank(rest[tokenStart - 1]) else { continue }
            var tokenEnd = tokenStart + 1
            while tokenEnd < rest.count, !TextBytes.isBlank(rest[tokenEnd]) { tokenEnd += 1 }
            if isAddressToken(rest.slice(tokenStart, tokenEnd)) {
                addressRange = tokenStart..<tokenEnd
                break
            }
        }
        guard let range = addressRange else { return unknownAddressFrameLine(index: index, rest) }
        let token = rest.slice(range.lowerBound, range.upperBound)
        return FrameLine(
            index: index,
            image: rest.prefix(range.lowerBound).trimmed(),
            address: token.startsWith0x ? token.hexValue() : token.hexValue(hex: true),
            location: rest.suffix(from: range.upperBound).trimmed()
        )
    }

    /// Reads the layout's frame whose address is unknown (a JSON frame with no image base) as a frame without one.
    ///
    /// `6   ???  <TAB>  ??? symbol + 12`: the tab before the address column tells it from other text.
    private static func unknownAddressFrameLine(index: Int, _ rest: TextBytes) -> FrameLine? {
        guard let tab = rest.firstIndex(of: 0x09) else { return nil }
        let column = rest.suffix(from: tab + 1).droppingLeadingBlanks()
        guard column.hasPrefix("???"), column.count == 3 || TextBytes.isBlank(column[3]) else { return nil }
        return FrameLine(
            index: index,
            image: rest.prefix(tab).trimmed(),
            address: nil,
            location: column.dropFirst(3).trimmed()
        )
    }

    /// Fills `frame` (made with the line's index) from a recognised line, in place: a frame built and then
    /// returned or appended was copied (all its strings retained, then released) on each of those steps.
    ///
    /// With `shared` (the bytes `raw` is a window on), the raw line is kept as a range of them; without, as text.
    static func fill(
        _ frame: inout CrashReport.Frame,
        from parts: FrameLine,
        raw: TextBytes,
        shared: CrashReport.SharedText?,
        imageNames: inout FrameImageNames
    ) {
        if !parts.image.isEmpty { frame.image = imageNames.name(parts.image) }
        frame.address = parts.address
        frame.source = shared
        frame.rawLine = frameText(raw, shared: shared)
        parseLocation(parts.location, into: &frame, shared: shared)
    }

    private static func isAddressToken(_ token: TextBytes) -> Bool {
        if token.startsWith0x {
            return token.count >= 3 && token.dropFirst(2).isAllHexDigits
        }
        return token.count >= 8 && token.allSatisfy { $0 == 0x30 }
    }

    /// Peels `(file:line[:col])`, `(in Module)` and `+ offset` from the right of a location.
    ///
    /// With `shared` (the bytes `text` is a window on), the symbol is kept as a range of them.
    static func parseLocation(_ text: TextBytes, into frame: inout CrashReport.Frame, shared: CrashReport.SharedText?) {
        // Most locations are `symbol + 28`: one memchr per marker byte rules out the rarer shapes.
        if text.firstIndex(of: 0x2F) != nil, let comment = text.range(of: "\t//") ?? text.range(of: " // ") {
            parseMainLocation(text.prefix(comment.lowerBound), into: &frame, shared: shared)
            // Third-party symbolicators write the symbol they found in a trailing comment:
            // `0x189622000 + 0x77354\t// -[CUICatalog …] + 0x824`. It is the frame's symbol when the columns
            // before it had none.
            let symbolic = text.suffix(from: comment.upperBound).trimmed()
            if frame.symbolText == nil, !symbolic.isEmpty, !symbolic.startsWith0x {
                let offset = frame.imageOffset
                readSymbol(symbolic, module: nil, into: &frame, shared: shared)
                frame.imageOffset = offset
            }
            return
        }
        parseMainLocation(text, into: &frame, shared: shared)
    }

    /// ``parseLocation(_:into:shared:)`` for the part before any trailing `//` comment.
    private static func parseMainLocation(
        _ text: TextBytes,
        into frame: inout CrashReport.Frame,
        shared: CrashReport.SharedText?
    ) {
        var rest = text.droppingTrailingBlanks()
        // Xcode, symbolicate and translate mark an inlined function's frame after its location.
        if rest.hasSuffix(" [inlined]") {
            frame.inlined = true
            rest = rest.prefix(rest.count - 10).droppingTrailingBlanks()
        }
        if rest.hasPrefix("+ ") {
            // `0x193c9c000 + 0xe0c`: the address column was the image base, the offset follows.
            if let value = offsetValue(rest.dropFirst(2).trimmed()), let base = frame.address?.value {
                frame.imageOffset = value
                let (sum, overflow) = base.addingReportingOverflow(value)
                frame.address = overflow ? frame.address : HexValue(sum)
            }
            return
        }
        if rest.hasSuffix(")"), let open = rest.lastIndex(of: 0x28) {
            let inner = rest.slice(open + 1, rest.count - 1)
            if let lastColon = inner.lastIndex(of: 0x3A), let lineNumber = inner.suffix(from: lastColon + 1).int,
                !inner.hasPrefix("in ")
            {
                let head = inner.prefix(lastColon)
                if let colon = head.lastIndex(of: 0x3A), let lineValue = head.suffix(from: colon + 1).int {
                    frame.fileText = frameText(head.prefix(colon), shared: shared)
                    frame.line = lineValue
                    frame.column = lineNumber
                } else {
                    frame.fileText = frameText(head, shared: shared)
                    frame.line = lineNumber
                }
                rest = rest.prefix(open).droppingTrailingBlanks()
            }
        }
        // KSCrash side-by-side: `0x7fff51e3a000 + 22694 (__psynch_mutexwait + 10)`.
        if rest.last == 0x29, rest.startsWith0x, let open = rest.lastRange(of: " (") {
            let outer = rest.prefix(open.lowerBound)
            let inner = rest.slice(open.upperBound, rest.count - 1)
            if let plus = outer.range(of: " + "), let offset = outer.suffix(from: plus.upperBound).trimmed().unsigned()
            {
                frame.imageOffset = offset
                if let innerPlus = inner.lastRange(of: " + "),
                    let symbolOffset = inner.suffix(from: innerPlus.upperBound).trimmed().unsigned()
                {
                    frame.symbolText = frameText(inner.prefix(innerPlus.lowerBound).trimmed(), shared: shared)
                    frame.symbolOffset = symbolOffset
                } else {
                    frame.symbolText = frameText(inner.trimmed(), shared: shared)
                }
                return
            }
        }
        if rest.firstIndex(of: 0x28) != nil, let range = rest.range(of: " (in "),
            let close = rest.firstIndex(of: 0x29, from: range.upperBound)
        {
            // `symbol (in Module) + 28`: the symbol and offset are read with the module cut out.
            let module = rest.slice(range.upperBound, close).string
            var joined: [UInt8] = []
            rest.prefix(range.lowerBound).append(to: &joined)
            rest.suffix(from: close + 1).append(to: &joined)
            // The joined bytes are a copy: the symbol is made as text.
            joined.withBorrowedBytes { readSymbol(TextBytes($0), module: module, into: &frame, shared: nil) }
            return
        }
        readSymbol(rest, module: nil, into: &frame, shared: shared)
    }

    /// `symbol + 28`, `0x1bd149000 + 2378352`, or a bare symbol; the last `+ N` wins (Apple sometimes inserts a
    /// second offset).
    private static func readSymbol(
        _ rest: TextBytes,
        module: String?,
        into frame: inout CrashReport.Frame,
        shared: CrashReport.SharedText?
    ) {
        if let plus = rest.lastRange(of: " + "), let value = offsetValue(rest.suffix(from: plus.upperBound).trimmed()) {
            let symbol = rest.prefix(plus.lowerBound).trimmed()
            if isImageBase(symbol) {
                // Unsymbolicated: `0x1bd149000 + 2378352` (image base + offset), or `0 + 0` for null frames.
                frame.imageOffset = value
            } else if !symbol.isEmpty {
                frame.symbolText = splicedSymbol(symbol) ?? frameText(symbol, shared: shared)
                frame.symbolOffset = value
            }
            if frame.image == nil, let module { frame.image = module }
            return
        }
        let symbol = rest.trimmed()
        if !symbol.isEmpty, !symbol.equals("???") {
            frame.symbolText = splicedSymbol(symbol) ?? frameText(symbol, shared: shared)
        }
        if frame.image == nil, let module { frame.image = module }
    }

    /// True when the text before ` + offset` is an image's load address, not a symbol.
    ///
    /// Apple writes the load address in hex with `0x`, or as `0` in a null frame (`0 + 0`). Any other text is a
    /// symbol, even when it reads as a number or as hex digits alone (`add`, `face`, or `1234` from a JSON
    /// report whose symbol is a number): taken for a load address, its offset became the frame's offset into
    /// its image, and the symbol was lost.
    static func isImageBase(_ symbol: TextBytes) -> Bool {
        if symbol.startsWith0x { return symbol.count > 2 && symbol.dropFirst(2).isAllHexDigits }
        return !symbol.isEmpty && symbol.allSatisfy { $0 == UInt8(ascii: "0") }
    }

    /// The symbol Apple's text spliced an offset into, rejoined; nil when the symbol has no splice.
    ///
    /// `-[NSObject+ 183052 (NSObject) doesNotRecognizeSelector:]` is `-[NSObject(NSObject) doesNotRecognizeSelector:]`
    /// and `_assertionFailure+ 228276 (_:_:file:line:flags:)` is `_assertionFailure(_:_:file:line:flags:)`: the
    /// splice is `+ digits ` glued to the name on its left and followed by `(`, where the name's own parenthesis was.
    static func splicedSymbol(_ symbol: TextBytes) -> CrashReport.FrameText? {
        var from = 0
        while let plus = symbol.range(of: "+ ", from: from) {
            from = plus.upperBound
            guard plus.lowerBound > 0, let before = symbol.slice(plus.lowerBound - 1, plus.lowerBound).first,
                !TextBytes.isBlank(before)
            else { continue }
            let digits = symbol.suffix(from: plus.upperBound).leadingDigitCount
            let after = plus.upperBound + digits
            guard digits > 0, after + 1 < symbol.count, symbol.slice(after, after + 2).equals(" (") else { continue }
            var joined: [UInt8] = []
            symbol.prefix(plus.lowerBound).append(to: &joined)
            symbol.suffix(from: after + 1).append(to: &joined)
            return .text(String(decoding: joined, as: UTF8.self))
        }
        return nil
    }

    /// `text` as a window on `shared` (the frame's ``CrashReport/Frame/source``) when it is a window on those
    /// bytes, else as its own text.
    private static func frameText(_ text: TextBytes, shared: CrashReport.SharedText?) -> CrashReport.FrameText {
        guard let shared else { return .text(text.string) }
        return .window(text.offsets, of: shared)
    }

    /// `text` as a range of `shared` when it is a window on those bytes, else as its own text.
    private static func lazyText(_ text: TextBytes, shared: CrashReport.SharedText?) -> CrashReport.LazyText {
        guard let shared else { return .text(text.string) }
        return .shared(shared, start: text.offsets.lowerBound, end: text.offsets.upperBound)
    }

    /// `0x…` in hex, otherwise decimal.
    private static func offsetValue(_ number: TextBytes) -> UInt64? {
        number.startsWith0x ? number.hexValue()?.value : number.unsigned()
    }

    // MARK: - Last Exception Backtrace

    /// Either the raw `(0x… 0x…)` list or frame lines; returns false for a line that is neither.
    @discardableResult
    private mutating func lastExceptionLine(_ line: TextBytes) -> Bool {
        if line.hasPrefix("(") {
            let afterParen = line.dropFirst()
            let inner = afterParen.prefix(afterParen.firstIndex(of: 0x29) ?? afterParen.count)
            var frames = report.lastExceptionBacktrace ?? []
            for token in inner.tokens() {
                if let address = token.hexValue(), tally.admitFrames(1, held: frames.count) == 1 {
                    frames.append(CrashReport.Frame(index: frames.count, address: address))
                }
            }
            report.lastExceptionBacktrace = frames
            return true
        }
        if let frame = Self.parseFrame(line, raw: line, shared: shared) {
            if tally.admitFrames(1, held: report.lastExceptionBacktrace?.count ?? 0) == 1 {
                report.lastExceptionBacktrace = (report.lastExceptionBacktrace ?? []) + [frame]
            }
            return true
        }
        return false
    }

    // MARK: - Registers

    private mutating func startRegisters(_ line: TextBytes) {
        let afterWord = line.dropFirst(7)
        let digits = afterWord.leadingDigitCount
        guard digits > 0, let index = afterWord.prefix(digits).int else { return }
        var flavor = line
        if let with = line.range(of: " with ") { flavor = line.suffix(from: with.upperBound) }
        let flavorText = flavor.dropLast().trimmedString
        if let position = report.threads.firstIndex(where: { $0.index == index }) {
            report.threads[position].registerFlavor = flavorText
            report.threads[position].registers = []
        } else if tally.admitThread(held: report.threads.count) {
            report.threads.append(CrashReport.Thread(index: index, registerFlavor: flavorText, registers: []))
        }
        mode = .registers(index)
    }

    /// A register block under a heading that names no thread; its registers go to the crashed thread at the end.
    private mutating func startBareRegisters(_ line: TextBytes) {
        lastBlock = nil
        var flavor = line.dropLast()
        if let with = flavor.range(of: " with ") { flavor = flavor.suffix(from: with.upperBound) }
        bareStates.append(
            (heading: line.dropLast().trimmedString, flavor: flavor.trimmedString, registers: [], lines: [])
        )
        mode = .bareRegisters(bareStates.count - 1)
    }

    /// `x0: 0x0000000000000001   x1: 0x…`, with optional text after a value (`esr: 0xf2000001  Address size fault`).
    private mutating func registerLine(_ line: TextBytes, thread: Int) -> Bool {
        guard let position = report.threads.firstIndex(where: { $0.index == thread }),
            let registers = Self.registers(in: line)
        else { return false }
        if report.threads[position].registers == nil {
            report.threads[position].registers = registers
        } else {
            report.threads[position].registers?.append(contentsOf: registers)
        }
        return true
    }

    /// The registers of one line of a thread state, nil when the line holds none.
    private static func registers(in line: TextBytes) -> [CrashReport.Register]? {
        let tokens = line.tokens()
        var registers: [CrashReport.Register] = []
        var k = 0
        var trailing: [String] = []
        while k < tokens.count {
            let token = tokens[k]
            if token.hasSuffix(":"), k + 1 < tokens.count, let value = tokens[k + 1].hexValue() {
                if !trailing.isEmpty, !registers.isEmpty {
                    registers[registers.count - 1].description = trailing.joined(separator: " ")
                }
                trailing = []
                registers.append(CrashReport.Register(name: token.dropLast().string, value: value))
                k += 2
            } else {
                trailing.append(token.string)
                k += 1
            }
        }
        guard !registers.isEmpty else { return nil }
        if !trailing.isEmpty { registers[registers.count - 1].description = trailing.joined(separator: " ") }
        return registers
    }

    // MARK: - Binary images

    /// One image line (see ``parseImage(_:)-(TextBytes)``), for callers that hold a `Substring`.
    static func parseImage(_ line: Substring) -> CrashReport.BinaryImage? {
        var text = String(line)
        return text.withBorrowedUTF8 { parseImage(TextBytes($0), shared: nil) }
    }

    /// `0x102aec000 - 0x102b03fff TouchCanvas arm64  <fe77…> /path`, or the macOS
    /// `0x1025e5000 - 0x1025e6ffb +com.example.App (1.0 - 1) <5ED9BD63-…> /path` form.
    ///
    /// With `shared` (the bytes `line` is a window on), the UUID is kept as a range of them, normalised when read.
    static func parseImage(_ line: TextBytes, shared: CrashReport.SharedText?) -> CrashReport.BinaryImage? {
        var images: [CrashReport.BinaryImage] = []
        return parseImage(line, shared: shared, into: &images) ? images.first : nil
    }

    /// ``parseImage(_:shared:)`` appending to `images`, false when the line is not an image line.
    ///
    /// The image is appended with its base only and then filled in place: appending a finished image copies it,
    /// retaining and releasing every string it holds.
    static func parseImage(
        _ line: TextBytes,
        shared: CrashReport.SharedText?,
        into images: inout [CrashReport.BinaryImage]
    ) -> Bool {
        // Base, dash and end are the first three space-separated pieces; the rest is read from both ends.
        // Held in three locals rather than an array: an array is one more allocation for every image line.
        var pieces = (line.slice(0, 0), line.slice(0, 0), line.slice(0, 0))
        var found = 0
        func add(_ piece: TextBytes) {
            switch found {
            case 0: pieces.0 = piece
            case 1: pieces.1 = piece
            default: pieces.2 = piece
            }
            found += 1
        }
        var start = 0
        var k = 0
        while k < line.count, found < 3 {
            if line[k] == 0x20 {
                if k > start { add(line.slice(start, k)) }
                start = k + 1
            }
            k += 1
        }
        var remainder = line.slice(0, 0)
        if found == 3 {
            remainder = line.suffix(from: start).trimmed()
        } else if start < line.count {
            add(line.suffix(from: start))
        }
        guard found >= 3, let base = pieces.0.hexValue(), pieces.1.equals("-") else { return false }
        let end = pieces.2.hexValue()
        var rest = remainder
        var isApp = false
        if rest.hasPrefix("+") {
            isApp = true
            rest = rest.dropFirst()
        }
        var uuid: CrashReport.LazyText?
        var path: CrashReport.LazyText?
        var descriptor = rest
        if let open = rest.firstIndex(of: 0x3C), let close = rest.firstIndex(of: 0x3E, from: open) {
            let written = rest.slice(open + 1, close)
            uuid =
                shared.map { .uuid($0, start: written.offsets.lowerBound, end: written.offsets.upperBound) }
                ?? .text(normalizeUUID(written))
            let after = rest.suffix(from: close + 1).trimmed()
            if !after.isEmpty, !after.equals("???") { path = lazyText(after, shared: shared) }
            descriptor = rest.prefix(open)
        }
        descriptor = descriptor.droppingTrailingBlanks()
        var version: String?
        var arch: String?
        if descriptor.hasSuffix(")"), let open = descriptor.lastIndex(of: 0x28) {
            version = descriptor.slice(open + 1, descriptor.count - 1).string
            descriptor = descriptor.prefix(open).droppingTrailingBlanks()
        }
        if let space = descriptor.lastIndex(of: 0x20) {
            let candidate = descriptor.suffix(from: space + 1)
            if let known = architectures.first(where: { candidate.equals($0) }) {
                arch = known.description
                descriptor = descriptor.prefix(space).droppingTrailingBlanks()
            }
        }
        let name = descriptor.trimmed()
        images.append(CrashReport.BinaryImage(base: base))
        fill(
            &images[images.count - 1],
            name: name.isEmpty ? nil : name.string,
            end: end,
            uuid: uuid,
            arch: arch,
            path: path,
            version: version == "*" ? nil : version,
            isApp: isApp
        )
        return true
    }

    /// Moves an image line's parts into the image appended for it.
    private static func fill(
        _ image: inout CrashReport.BinaryImage,
        name: consuming String?,
        end: HexValue?,
        uuid: consuming CrashReport.LazyText?,
        arch: consuming String?,
        path: consuming CrashReport.LazyText?,
        version: consuming String?,
        isApp: Bool
    ) {
        image.name = name
        image.end = end
        image.uuidText = uuid
        image.arch = arch
        image.pathText = path
        image.version = version
        image.isApp = isApp
    }

    private static let architectures: [StaticString] = [
        "arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "armv6", "x86_64", "x86_64h", "i386", "arm",
    ]

    /// 32 lower-case hex digits without dashes; other text is kept lower-cased.
    static func normalizeUUID(_ text: String) -> String {
        var text = text
        let ascii = text.withBorrowedUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 } ? TextBytes(bytes).lowercasedWithoutDashes() : nil
        }
        return ascii ?? text.lowercased().filter { $0 != "-" }
    }

    /// ``normalizeUUID(_:)-(String)`` on bytes, without the detour through `String` for ASCII text.
    static func normalizeUUID(_ text: TextBytes) -> String {
        text.allSatisfy({ $0 < 0x80 }) ? text.lowercasedWithoutDashes() : text.string.lowercased().filter { $0 != "-" }
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

    private mutating func note(_ code: Diagnostic.Code, _ message: String) {
        diagnostics.append(Diagnostic(.note, code, message, at: SourceLocation(line: lineNumber)))
    }

    // MARK: - End

    private mutating func finish() {
        for (index, name) in pendingNames
        where !report.threads.contains(where: { $0.index == index }) && tally.admitThread(held: report.threads.count) {
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
                    .crashCrashedThreadNotListed,
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
        placeBareStates()
        readApplicationSpecificInformation()
        if cutLines > Self.namedCutLines {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .crashLineTooLong,
                    "\(cutLines - Self.namedCutLines) more line(s) longer than \(Self.maxLineBytes) bytes were cut",
                    at: nil
                )
            )
        }
        diagnostics += tally.diagnostics
        if tally.cutSomething { report.isPartial = true }
        if !unknown.isEmpty { report.unknownKeys = .object(unknown) }
        let unparsed = unknown.filter { $0.key.hasPrefix("unparsed line ") }.count
        if unparsed > 0 {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .crashUnparsedLines,
                    "\(unparsed) line(s) matched no known field, block or frame; kept verbatim in unknownKeys",
                    at: nil
                )
            )
        }
        // A part of a report (the recrash after KSCrash's `Handler crashed while reporting:`) has no header or images
        // of its own: it is neither a fragment nor cut short for that.
        if isSection { return }
        if sawHeaderField, report.threads.isEmpty, report.exception == nil, report.binaryImages.isEmpty {
            report.isPartial = true
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .crashHeaderOnly,
                    "the report has only its header: no exception, threads or binary images",
                    at: nil
                )
            )
        }
        if !sawHeaderField || report.process == nil {
            report.isPartial = true
            if report.sourceFormat == .text { report.sourceFormat = .fragment }
        } else {
            noteCutShort()
        }
    }

    /// Gives the registers of blocks whose heading names no thread (`PPC Thread State:`) to the crashed thread.
    ///
    /// Such a block is the crashed thread's, as in the reports that write one: when the report names no crashed
    /// thread, or that thread already has registers, the block is kept as written instead.
    private mutating func placeBareStates() {
        for state in bareStates {
            if let crashed = report.crashedThread {
                if let position = report.threads.firstIndex(where: { $0.index == crashed }) {
                    if report.threads[position].registers == nil {
                        report.threads[position].registerFlavor = state.flavor
                        report.threads[position].registers = state.registers
                        continue
                    }
                } else if tally.admitThread(held: report.threads.count) {
                    var thread = CrashReport.Thread(index: crashed, crashed: true)
                    thread.registerFlavor = state.flavor
                    thread.registers = state.registers
                    report.threads.append(thread)
                    report.threads.sort { $0.index < $1.index }
                    continue
                }
            }
            report.blocks.append(CrashReport.Block(title: state.heading, lines: state.lines))
        }
    }

    /// The Application Specific Information block's text as ``CrashReport/applicationSpecificInformation``.
    ///
    /// The first line is trimmed; a later line keeps its indentation (an indented backtrace, a dictionary's
    /// entries), less the heading's own indentation when the report was pasted indented. Blank lines are left out.
    private mutating func readApplicationSpecificInformation() {
        guard let indent = asiIndent, let block = report.blocks.first(where: { $0.title == Self.asiTitle }) else {
            return
        }
        var lines: [String] = []
        for line in block.lines {
            if lines.isEmpty {
                let trimmed = line.trimmingASCIIWhitespace()
                if !trimmed.isEmpty { lines.append(trimmed) }
                continue
            }
            var utf8 = Substring(line).utf8
            var dropped = 0
            while dropped < indent, let first = utf8.first, first == 0x20 || first == 0x09 {
                utf8 = utf8.dropFirst()
                dropped += 1
            }
            while let last = utf8.last, last == 0x20 || last == 0x09 || last == 0x0D { utf8 = utf8.dropLast() }
            if utf8.contains(where: { $0 != 0x20 && $0 != 0x09 }) { lines.append(String(Substring(utf8))) }
        }
        if !lines.isEmpty { report.applicationSpecificInformation = lines }
    }

    /// Whether an image's path ends with its name, as Apple writes them: a path cut short does not.
    private static func pathEndsInName(_ image: CrashReport.BinaryImage) -> Bool {
        guard let name = image.name, let path = image.path else { return false }
        return path == name || path.hasSuffix("/" + name)
    }

    /// Says so when a whole report's file stops before its end: a copy cut short otherwise reads as complete.
    ///
    /// Line by line, a report cut inside its threads is a report with fewer threads, and the cut line a frame whose
    /// address is the digits that were left. Apple's text reports close with their Binary Images section (or `EOF`),
    /// so a report with an exception or threads but no such section was cut; a last line without a line break is
    /// named, since it may be cut too. Inside the images, the cut is a last line without a line break that is not an
    /// image; or an image without an end address or a name, or with a UUID opened and not closed; or one that lacks
    /// the UUID or path the image before it has (or a path ending in its name, as the one before it does). Not seen:
    /// a cut in the only image's path, or where names are bundle identifiers (`com.apple.Security`) that paths do not
    /// end in, or a cut right at a line's end.
    private mutating func noteCutShort() {
        if sawEOF { return }
        let last = unterminatedLine.map { SourceLocation(byteOffset: $0.byteOffset, line: $0.number, column: 1) }
        if !sawImagesHeading {
            // A report with only its header has its own warning.
            guard !report.threads.isEmpty || report.exception != nil || report.lastExceptionBacktrace != nil else {
                return
            }
            report.isPartial = true
            var message =
                "the report ends at line \(lastTextLine) without a Binary Images section: the file looks cut short, "
                + "and its frames cannot be matched to images"
            if let line = unterminatedLine {
                message += "; line \(line.number), the last, has no line break and may be cut too"
            }
            diagnostics.append(
                Diagnostic(.warning, .crashCutShort, message, at: last ?? SourceLocation(line: lastTextLine))
            )
            return
        }
        guard let line = unterminatedLine, let parsed = unterminatedImage else { return }
        var cut = !parsed
        if parsed, let final = report.binaryImages.last,
            final.end == nil || final.name == nil || (final.uuid == nil && final.name?.contains("<") == true)
        {
            // An image line stops after its base (`0x28000 -    0x`), or a UUID opened and never closed
            // (`<19d7b567-6d0a-356a`), at the end of the file.
            cut = true
        } else if parsed, report.binaryImages.count >= 2 {
            let final = report.binaryImages[report.binaryImages.count - 1]
            let before = report.binaryImages[report.binaryImages.count - 2]
            cut =
                (before.uuid != nil && final.uuid == nil) || (before.path != nil && final.path == nil)
                || (Self.pathEndsInName(before) && !Self.pathEndsInName(final))
        }
        guard cut else { return }
        report.isPartial = true
        let what =
            parsed
            ? "its last image lacks the UUID or whole path the image before it has"
            : "the line is not a whole image"
        diagnostics.append(
            Diagnostic(
                .warning,
                .crashCutShort,
                "the file ends inside line \(line.number), in the Binary Images section, without a line break: "
                    + "\(what), so the copy looks cut short",
                at: last
            )
        )
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    ///
    /// Trimmed on the UTF-8 bytes when the text kept starts and ends with ASCII: a space or tab is then a whole
    /// Character on both sides, as the Character-level trim (kept for other text, where a space can belong to the
    /// Character next to it) would find. Thread headers and field values go through here for every thread.
    func trimmingSpaces() -> String {
        let text = Substring(self)
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start != utf8.endIndex, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        var end = utf8.endIndex
        while end != start {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        if start == end { return "" }
        if utf8[start] < 0x80, utf8[utf8.index(before: end)] < 0x80 { return String(text[start..<end]) }
        let first = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let last = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? first
        return first < last ? String(self[first..<last]) : ""
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
