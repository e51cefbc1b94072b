import APMInspectCore
import ByteAccess

/// Reads the spindump text of Apple's hang reports into the crash report model: macOS `.hang` and `.spin` files,
/// and the `.ips` hang reports (bug_type 228 and the others the table marks as hangs) whose body is that text.
///
/// Spindump samples every process for the hang's length and prints each thread as a call tree. A crash report
/// has one backtrace per thread, so each thread of the hung process (the report's `Command` and `PID`) becomes its
/// heaviest path, innermost frame first; the main thread is the one ``CrashReport/crashedThread`` names, as in a
/// KSCrash hang. Frames in the kernel's address space (marked `*`) are left out, as a crash report's backtraces
/// are the process's own. The other processes are counted, not modelled. The hang's length is `Duration`.
struct SpindumpReader {
    let limits: CrashParseLimits

    /// How far into the body the fields that make a spindump are looked for.
    static let sniffedBytes = 65_536
    /// Call-tree lines kept for one thread: a thread's tree is every distinct stack it had, which a hostile report
    /// can make as long as it likes.
    static let maxTreeNodes = 200_000

    /// True for the spindump text of a hang.
    ///
    /// The body has the hung process's `Command` and either the heaviest stack of its main thread or the `Event`
    /// and `Steps` of a sampling; an `Event` other than a hang (`cpu usage`, `disk writes`: the resource reports)
    /// is not one. A header names a hang bug_type or nothing.
    static func isHangReport(_ container: IPSContainer) -> Bool {
        guard container.bodyKind == .text else { return false }
        if let bugType = container.bugType, bugType.family != .hang { return false }
        // Every text report is asked this before it is parsed: the search is ByteAccess's SSE2 one (the standard
        // library's generic `firstRange(of:)` cost about ten million instructions a report).
        return container.body.prefix(sniffedBytes).withBorrowedBytes { bytes in
            guard lineStart(bytes, "Command:") != nil else { return false }
            let heaviest = lineStart(bytes, "Heaviest stack for the main thread") != nil
            guard let event = lineValue(bytes, "Event:") else {
                return heaviest || (container.bugType != nil && lineStart(bytes, "Steps:") != nil)
            }
            let lowered = event.lowercased()
            guard lowered.hasPrefix("hang") || lowered.hasPrefix("spin") else { return false }
            return heaviest || lineStart(bytes, "Steps:") != nil
        }
    }

    /// Where the first line that starts with `start` begins, or nil.
    private static func lineStart(_ bytes: BorrowedBytes, _ start: StaticString) -> Int? {
        var from = 0
        while let found = bytes.firstIndex(of: start, from: from) {
            if found == 0 || bytes[found - 1] == UInt8(ascii: "\n") { return found }
            from = found + 1
        }
        return nil
    }

    /// The value of the first `Key:` line.
    private static func lineValue(_ bytes: BorrowedBytes, _ key: StaticString) -> String? {
        guard let start = lineStart(bytes, key) else { return nil }
        let valueStart = start + key.utf8CodeUnitCount
        let end = bytes.firstIndex(of: UInt8(ascii: "\n"), from: valueStart) ?? bytes.count
        return bytes.slice(valueStart..<end).string.trimmingSpaces()
    }

    private enum Section {
        case header
        case heaviestStack
        case process(isTarget: Bool)
        case images(isTarget: Bool)
    }

    /// Reads the body; never fails (a body with nothing readable gives a report with only what it had).
    func read(_ container: IPSContainer, diagnostics: inout [Diagnostic]) -> CrashReport {
        var state = ReadState(limits: limits, header: container.header)
        var lineNumber = container.bodyOrigin.line - 1
        // Lines are read on the bytes and only what is kept becomes a `String`: splitting the decoded text on
        // `Character`s cost a grapheme break test per byte (and never split at `\r\n`, one `Character`).
        container.body.withBorrowedBytes { all in
            let text = TextBytes(all)
            var start = 0
            while start <= text.count {
                let end = text.firstIndex(of: 0x0A, from: start) ?? text.count
                var line = text.slice(start, end)
                if line.last == 0x0D { line = line.dropLast() }
                lineNumber += 1
                state.read(line, lineNumber: lineNumber)
                start = end + 1
            }
        }
        return state.finish(diagnostics: &diagnostics)
    }
}

extension SpindumpReader {
    /// What one pass over the lines gathers.
    fileprivate struct ReadState {
        let tally: CrashLimitTally
        var report: CrashReport
        private var section = Section.header
        private var unknown: [JSONValue.Member] = []
        private var heaviest: [SpindumpLine.Frame] = []
        private var tree: SpindumpCallTree
        private var thread: SpindumpLine.ThreadHeading?
        private var threads: [(SpindumpLine.ThreadHeading, [SpindumpLine.Frame])] = []
        private var targetSeen = false
        private var otherProcesses = 0
        private var unreadLines = 0
        private var firstUnreadLine: Int?
        private var treeLinesSkipped = 0
        private var images: [SpindumpLine.Image] = []
        private var processArchitecture: String?
        private var actionTaken: String?

        init(limits: CrashParseLimits, header: IPSHeader?) {
            tally = CrashLimitTally(limits)
            report = CrashReport(sourceFormat: .spindump, header: header)
            tree = SpindumpCallTree(maxNodes: SpindumpReader.maxTreeNodes)
        }

        mutating func read(_ line: TextBytes, lineNumber: Int) {
            if line.allSatisfy(TextBytes.isBlank) {
                endBlock()
                return
            }
            if line.hasPrefix("Heaviest stack for the main thread") {
                section = .heaviestStack
                return
            }
            if line.hasPrefix("Process:") {
                startProcess(line)
                return
            }
            switch section {
            case .header:
                if line.hasPrefix("----") || line.hasPrefix("Timeline format") || line.hasPrefix("Use -i") { return }
                guard let (key, value) = SpindumpLine.field(line) else {
                    unread(lineNumber)
                    return
                }
                headerField(key, value)
            case .heaviestStack:
                guard let frame = SpindumpLine.frame(line) else {
                    unread(lineNumber)
                    return
                }
                heaviest.append(frame)
            case .process(let isTarget):
                guard isTarget else {
                    if SpindumpLine.droppingSpaces(line).hasPrefix("Binary Images:") {
                        section = .images(isTarget: false)
                    }
                    return
                }
                processLine(line, lineNumber: lineNumber)
            case .images(let isTarget):
                guard isTarget else { return }
                if let image = SpindumpLine.image(line) {
                    if !image.isKernel { images.append(image) }
                } else {
                    unread(lineNumber)
                }
            }
        }

        private mutating func processLine(_ line: TextBytes, lineNumber: Int) {
            let trimmed = line.droppingLeadingBlanks()
            if trimmed.hasPrefix("Binary Images:") {
                closeThread()
                section = .images(isTarget: true)
            } else if let heading = SpindumpLine.threadHeading(line) {
                closeThread()
                thread = heading
            } else if trimmed.first == 0x3C && thread != nil && tree.isEmpty {
                // The thread's state (`<thread QoS user interactive …>`): what the scheduler said, not a frame.
                return
            } else if let frame = SpindumpLine.frame(line), thread != nil {
                tree.add(frame)
            } else if thread == nil, let (key, value) = SpindumpLine.field(line) {
                // The hung process's own architecture (`arm64`), not the machine's (`arm64e`) the header opens with.
                if key == "Architecture" { processArchitecture = value }
            } else {
                unread(lineNumber)
            }
        }

        private mutating func unread(_ lineNumber: Int) {
            unreadLines += 1
            if firstUnreadLine == nil { firstUnreadLine = lineNumber }
        }

        /// A blank line ends the heaviest stack and a process's image list; a thread's tree ends at the next heading.
        private mutating func endBlock() {
            switch section {
            case .heaviestStack: section = .header
            case .images: section = .process(isTarget: false)
            case .header, .process: break
            }
        }

        /// `Process:          RedLemon [27952]`: the hung process is the one the header names.
        private mutating func startProcess(_ line: TextBytes) {
            closeThread()
            let value = line.dropFirst(8).trimmedString
            let (name, pid) = CrashTextReader.nameAndPid(value)
            let isTarget: Bool
            if targetSeen {
                isTarget = false
            } else if let wanted = report.pid {
                isTarget = pid == wanted
            } else if let wanted = report.process {
                isTarget = name == wanted
            } else {
                isTarget = true
            }
            if isTarget {
                targetSeen = true
                if report.process == nil { report.process = name }
                if report.pid == nil { report.pid = pid }
            } else {
                otherProcesses += 1
            }
            section = .process(isTarget: isTarget)
        }

        private mutating func closeThread() {
            guard let heading = thread else { return }
            thread = nil
            treeLinesSkipped += tree.skipped
            let path = tree.heaviestPath()
            tree = SpindumpCallTree(maxNodes: SpindumpReader.maxTreeNodes)
            guard tally.admitThread(held: threads.count) else {
                tally.skipFramesOfSkippedThread(path.count)
                return
            }
            threads.append((heading, path))
        }

        private mutating func headerField(_ key: String, _ value: String) {
            switch key {
            case "Date/Time": report.date = AppleTimestamp(value)
            case "OS Version": report.osVersion = value
            case "Report Version": report.reportVersion = value
            case "Incident Identifier": report.incidentID = value
            case "Hardware model", "Hardware Model": report.hardwareModel = value
            case "Command": report.process = value
            case "Path": report.path = value
            case "Identifier": report.bundleId = value
            case "Version":
                // Spindump writes `short (build)`, as macOS crash reports do.
                let (short, build) = CrashTextReader.splitParenthesis(value)
                report.appVersion = short.isEmpty ? nil : short
                report.appBuild = build
            case "PID": report.pid = Int64(value)
            case "Parent":
                (report.parentProcess, report.parentPid) = CrashTextReader.nameAndPid(value)
            case "Responsible":
                (report.responsibleProcess, report.responsiblePid) = CrashTextReader.nameAndPid(value)
            case "Duration":
                report.hang = CrashReport.Hang(durationSeconds: Self.seconds(value), recovered: true)
                keep(key, value)
            case "Action taken", "Action Taken":
                actionTaken = value
                keep(key, value)
            case "Architecture":
                // The first is the machine's; the one after `Command` the hung process's.
                if report.process != nil { processArchitecture = value }
                keep(key, value)
            default: keep(key, value)
            }
        }

        private mutating func keep(_ key: String, _ value: String) {
            // A key written twice (`Shared Cache`, one line per cache) keeps every value, one per line.
            if let k = unknown.firstIndex(where: { $0.key == key }), case .string(let first) = unknown[k].value {
                guard tally.admitUnknown(bytes: value.utf8.count + 1) else { return }
                unknown[k].value = .string(first + "\n" + value)
                return
            }
            guard tally.admitUnknown(bytes: key.utf8.count + value.utf8.count) else { return }
            unknown.append(JSONValue.Member(key: key, value: .string(value)))
        }

        /// `7.23s` → 7.23; nil for anything else.
        static func seconds(_ value: String) -> Double? {
            guard value.hasSuffix("s"), let seconds = Double(value.dropLast()), seconds.isFinite, seconds >= 0 else {
                return nil
            }
            return seconds
        }

        mutating func finish(diagnostics: inout [Diagnostic]) -> CrashReport {
            closeThread()
            if threads.isEmpty, !heaviest.isEmpty {
                // No section for the hung process (or it could not be found): its heaviest stack is its main thread.
                threads.append((SpindumpLine.ThreadHeading(queue: "com.apple.main-thread"), heaviest))
                diagnostics.append(
                    Diagnostic(
                        .note,
                        .spindumpProcessNotFound,
                        "the report has no thread list for the hung process; its main thread is the heaviest stack",
                        at: nil
                    )
                )
            }
            for (index, (heading, path)) in threads.enumerated() {
                let frames = path.reversed().filter { !$0.isKernel && !$0.isPlaceholder }
                let kept = tally.admitFrames(frames.count, held: 0)
                report.threads.append(
                    CrashReport.Thread(
                        index: index,
                        id: heading.id,
                        name: heading.name,
                        queue: heading.queue,
                        frames: frames.prefix(kept).enumerated().map { Self.frame($1, index: $0) }
                    )
                )
            }
            let main =
                report.threads.firstIndex { $0.queue == "com.apple.main-thread" } ?? (report.threads.isEmpty ? nil : 0)
            if let main {
                report.crashedThread = main
                report.threads[main].crashed = true
            }
            for image in images {
                guard report.binaryImages.count < tally.limits.maxBinaryImages else {
                    tally.skipImages(1)
                    continue
                }
                report.binaryImages.append(binaryImage(image))
            }
            report.category = .hang
            if report.hang == nil { report.hang = CrashReport.Hang(recovered: true) }
            if let actionTaken, Self.saysKilled(actionTaken) { report.hang?.recovered = false }
            if treeLinesSkipped > 0 {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        .spindumpTreeTruncated,
                        "\(treeLinesSkipped) call-tree line(s) past \(SpindumpReader.maxTreeNodes) in one thread were "
                            + "left out; that thread's stack is the heaviest of what was read",
                        at: nil
                    )
                )
                report.isPartial = true
            }
            if otherProcesses > 0 {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        .spindumpOtherProcesses,
                        "\(otherProcesses) other process(es) sampled with the hung one are counted, not modelled",
                        at: nil
                    )
                )
            }
            if unreadLines > 0 {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        .spindumpUnreadLines,
                        "\(unreadLines) line(s) of the hung process's part matched no field, frame or image",
                        at: firstUnreadLine.map { SourceLocation(line: $0) }
                    )
                )
            }
            diagnostics += tally.diagnostics
            if tally.cutSomething { report.isPartial = true }
            if !unknown.isEmpty { report.unknownKeys = .object(unknown) }
            report.deriveFacts()
            // Spindump writes `macOS 14.5 (Build 23F79)`, where crash reports write `(23F79)`.
            if let build = report.osBuild, build.hasPrefix("Build ") { report.osBuild = String(build.dropFirst(6)) }
            // Derived facts look for a crash report's not-a-crash notes; a hang report is never a crash.
            report.isNotACrash = true
            return report
        }

        /// `Force quit`, `Process killed`: the hang ended with the process.
        private static func saysKilled(_ action: String) -> Bool {
            let lowered = action.lowercased()
            return lowered.contains("kill") || lowered.contains("quit") || lowered.contains("terminat")
        }

        private static func frame(_ frame: SpindumpLine.Frame, index: Int) -> CrashReport.Frame {
            CrashReport.Frame(
                index: index,
                image: frame.image,
                address: frame.address.map(HexValue.init),
                imageOffset: frame.imageOffset,
                symbol: frame.symbol,
                symbolOffset: frame.symbolOffset,
                file: frame.file,
                line: frame.line,
                column: frame.column
            )
        }

        private func binaryImage(_ image: SpindumpLine.Image) -> CrashReport.BinaryImage {
            let isBundleID =
                image.identifier.contains(".") && image.path.map { !$0.hasSuffix("/" + image.identifier) } ?? false
            let name = isBundleID ? image.path.map(KSCrashMapping.lastComponent) : image.identifier
            let appBundle = Self.bundle(of: report.path)
            let isApp =
                image.path != nil
                && (image.path == report.path || (appBundle != nil && Self.bundle(of: image.path) == appBundle))
            return CrashReport.BinaryImage(
                name: name,
                base: HexValue(image.base),
                end: image.end.map(HexValue.init),
                uuid: image.uuid,
                arch: processArchitecture,
                path: image.path,
                version: image.version,
                bundleId: isBundleID ? image.identifier : nil,
                isApp: isApp
            )
        }

        /// `/Applications/X.app` of a path inside an app bundle; nil for any other path.
        private static func bundle(of path: String?) -> Substring? {
            guard let path, let range = path.byteRange(of: ".app/") else { return nil }
            return path[..<range.lowerBound]
        }
    }
}
