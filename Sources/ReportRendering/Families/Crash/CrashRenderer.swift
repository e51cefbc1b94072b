import APMInspectCore
import CrashReportParsing

/// The human summary of a crash report: who crashed, how, and where in the app's code.
package enum CrashRenderer {
    /// The plain view (no colour), as `inspect` prints it with `options`.
    package static func render(_ report: CrashReport, file: String, options: CrashViewOptions = .standard) -> String {
        styled(report, file: file, options: options).plain
    }

    /// The view with the crashed thread's heading marked for colour; `options` say which parts are shown.
    package static func styled(_ report: CrashReport, file: String, options: CrashViewOptions) -> StyledText {
        var title = "Crash report"
        // An OS fault, a system watchdog crash, a stackshot or a hang read as a crash report says which it is.
        if let code = report.header?.bugType, BugType.lookup(code).family != .crash {
            title += " (bug_type \(code) \(BugType.lookup(code).name))"
        }
        switch report.category {
        case .hang:
            title = "Hang report (not a crash"
            if let hang = report.hang {
                title += hang.recovered ? ": the app recovered" : ": the app was killed while hanging"
                if let seconds = hang.durationSeconds { title += " after \(Formatting.oneDecimal(seconds)) s" }
            }
            title += ")"
        case .profile:
            title = "Profile report (not a crash"
            if let profile = report.profile {
                title += ": \(profile.samples.count) sample(s)"
                if let seconds = profile.durationSeconds { title += " over \(Formatting.oneDecimal(seconds)) s" }
                title += "; --format folded prints the stacks"
            }
            title += ")"
        case .outOfMemory: title += " (out of memory: the OS killed the app for its memory use)"
        case .resourceKill: title += " (resource kill: the OS killed the app for its resource use)"
        default:
            if report.isNotACrash { title += " (not a crash: simulated or non-fatal)" }
        }
        if report.isPartial { title += " (partial)" }
        var out = "\(title)  \(file)\n"
        var fields: [(String, String)] = []
        var app = report.process ?? "?"
        if let pid = report.pid { app += " [\(pid)]" }
        if let bundle = report.bundleId, bundle != report.process { app += "  \(bundle)" }
        fields.append(("App", app))
        if let written = report.appVersion {
            // Apple prints an empty version as `???`.
            let version = written.isEmpty ? "???" : written
            fields.append(("Version", report.appBuild.map { "\(version) (\($0))" } ?? version))
        }
        if let model = report.hardwareModel {
            fields.append(("Device", report.deviceName.map { "\($0) (\(model))" } ?? model))
        }
        if let os = report.osVersion { fields.append(("OS", os + (report.releaseType.map { "  \($0)" } ?? ""))) }
        if let date = report.date { fields.append(("Time", date.iso8601)) }
        if let incident = report.incidentID { fields.append(("Incident", incident)) }
        if let exception = report.exception { fields += exceptionFields(exception) }
        if let termination = report.termination {
            var line = termination.namespace ?? "?"
            if let code = termination.code {
                // Signal numbers read better in decimal; OS codes are known by their hex spelling.
                line += termination.namespace == "SIGNAL" ? " \(code.value)" : " \(code)"
            }
            if let indicator = termination.indicator { line += "  \(indicator)" }
            fields.append(("Termination", line))
            for reason in termination.reasons.prefix(6) { fields.append(("", reason)) }
            if termination.reasons.count > 6 { fields.append(("", "… \(termination.reasons.count - 6) more lines")) }
        }
        fields += applicationInfoFields(report)
        if let signature = report.signature { fields.append(("Signature", signature)) }
        out += InspectionRenderer.keyValues(fields)
        var view = StyledText(out)
        if let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
            view += "\nLast exception backtrace (app frames marked ▶)\n"
            view += frames(backtrace, limit: options.frameLimit)
        }
        let crashed = report.crashedThread.flatMap { index in report.threads.first { $0.index == index } }
        switch options.threads {
        case .crashed:
            if let crashed {
                view += threadSection(crashed, crashed: true, limit: options.frameLimit, hung: report.category == .hang)
            }
        case .all:
            for thread in report.threads {
                view += threadSection(
                    thread,
                    crashed: thread.index == report.crashedThread,
                    limit: options.frameLimit,
                    hung: report.category == .hang
                )
            }
        }
        if options.registers { view += registerSection(report, crashed: crashed) }
        if let recrash = report.recrashReport { view += recrashSection(recrash, options: options) }
        if options.images { view += imageSection(report.binaryImages) }
        view += "\n  \(report.threads.count) threads, \(report.binaryImages.count) binary images"
        view += report.unknownKeys == nil ? "\n" : "; unmodelled fields kept verbatim (see --format json)\n"
        return view
    }

    /// The exception's lines: type and signal, what it means, the fault address, the codes as written.
    private static func exceptionFields(_ exception: CrashReport.Exception) -> [(String, String)] {
        var fields: [(String, String)] = []
        var line = exception.typeAndSignal ?? ""
        if let subtype = exception.subtype { line += "  \(subtype)" }
        fields.append(("Exception", line))
        if let meaning = exception.meaning { fields.append(("", meaning)) }
        if let address = exception.faultAddress { fields.append(("", "fault address \(address)")) }
        if exception.possiblePointerAuthenticationFailure == true {
            fields.append(("", "possible pointer authentication failure (a corrupted or forged pointer)"))
        }
        // macOS writes the codes twice (symbolic, then raw hex): every line is shown.
        for (k, codes) in (exception.codes?.split(separator: "\n") ?? []).enumerated() {
            fields.append((k == 0 ? "Codes" : "", String(codes)))
        }
        // EXC_RESOURCE's point: `(Limit 50%) Observed 60% over 180 secs`.
        if let message = exception.message { fields.append(("Message", message)) }
        return fields
    }

    /// The first lines of the Application Specific Information; a later line keeps its indentation (an indented
    /// backtrace or dictionary), so its shape shows.
    private static func applicationInfoFields(_ report: CrashReport) -> [(String, String)] {
        guard
            let info = report.applicationSpecificInformation
                ?? report.blocks.first(where: { $0.title == "Application Specific Information" })?.lines,
            !info.isEmpty
        else { return [] }
        var fields = [("App info", info[0].trimmingASCIIWhitespace())]
        for line in info.dropFirst().prefix(3) {
            let kept = String(line.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            fields.append(("", kept.allSatisfy { $0 == " " || $0 == "\t" } ? "" : kept))
        }
        return fields
    }

    /// The report KSCrash's handler wrote when it crashed while writing this one: its exception, diagnosis and
    /// crashed thread, apart from the report's own.
    private static func recrashSection(_ recrash: CrashReport, options: CrashViewOptions) -> StyledText {
        var fields: [(String, String)] = []
        if let exception = recrash.exception { fields += exceptionFields(exception) }
        fields += applicationInfoFields(recrash)
        for block in recrash.blocks where block.title == "Recrash Diagnosis" || block.title == "CrashDoctor Diagnosis" {
            for (k, line) in block.lines.enumerated() { fields.append((k == 0 ? "Diagnosis" : "", line)) }
        }
        if let signature = recrash.signature { fields.append(("Signature", signature)) }
        var view = StyledText("\nRecrash report: the crash handler crashed while writing this report\n")
        view += InspectionRenderer.keyValues(fields)
        let crashed = recrash.crashedThread.flatMap { index in recrash.threads.first { $0.index == index } }
        switch options.threads {
        case .crashed:
            if let crashed {
                view += threadSection(crashed, crashed: true, limit: options.frameLimit, prefix: "Recrash thread")
            }
        case .all:
            for thread in recrash.threads {
                let isCrashed = thread.index == recrash.crashedThread
                view += threadSection(thread, crashed: isCrashed, limit: options.frameLimit, prefix: "Recrash thread")
            }
        }
        if options.registers { view += registerSection(recrash, crashed: crashed, prefix: "Recrash thread") }
        return view
    }

    /// A thread's heading and frames; the crashed thread's heading is the one marked for colour.
    private static func threadSection(
        _ thread: CrashReport.Thread,
        crashed: Bool,
        limit: Int?,
        prefix: String = "Thread",
        hung: Bool = false
    ) -> StyledText {
        var heading = "\(prefix) \(thread.index)"
        // A hang report's marked thread is the main thread that hung, not one that crashed.
        if crashed { heading += thread.attributed ? " attributed" : hung ? " hung" : " crashed" }
        // One line each: a line break in a name must not start a line of its own.
        if let name = thread.name { heading += "  \(TerminalText.escaped(name))" }
        if let queue = thread.queue { heading += "  queue \(TerminalText.escaped(queue))" }
        if crashed { heading += " (app frames marked ▶)" }
        var out = StyledText("\n")
        out.append(heading, style: crashed ? .crashed : nil)
        out += "\n" + frames(thread.frames, limit: limit)
        return out
    }

    /// The crashed thread's state, four registers a line as Apple prints it (`   x0: 0x0000000000000000`), fewer
    /// when four would not fit the table width (`cpsr` widens every name to four columns: four 64-bit registers
    /// then take 101).
    ///
    /// A register with a description (`esr`'s `(Data Abort) byte read Translation fault`) ends its line, so the
    /// description is never cut off by the next register.
    private static func registerSection(
        _ report: CrashReport,
        crashed: CrashReport.Thread?,
        prefix: String = "Thread"
    ) -> String {
        // The thread state is the crashed thread's; a report that gives it to another thread still shows it.
        let hasState = { (thread: CrashReport.Thread) in thread.registers?.isEmpty == false }
        guard let thread = crashed.flatMap({ hasState($0) ? $0 : nil }) ?? report.threads.first(where: hasState),
            let registers = thread.registers
        else { return "\n\(prefix) state: none in this report\n" }
        var out = "\n\(prefix) \(thread.index) state"
        if let flavor = thread.registerFlavor { out += " (\(TerminalText.escaped(flavor)))" }
        out += "\n"
        let wide = thread.registerFlavor?.contains("64") == true || registers.contains { $0.value.value > 0xFFFF_FFFF }
        let digits = wide ? 16 : 8
        let nameWidth = registers.map { TextTable.displayWidth(TerminalText.escaped($0.name)) }.max() ?? 0
        let cellWidth = nameWidth + 4 + digits
        let perLine = TableWidth.shared.limit.map { max(1, min(4, ($0 - 2 + 1) / (cellWidth + 1))) } ?? 4
        var line: [String] = []
        func flush() {
            if !line.isEmpty { out += "  " + line.joined(separator: " ") + "\n" }
            line = []
        }
        for register in registers {
            let name = TerminalText.escaped(register.name)
            let hex = String(register.value.value, radix: 16)
            var cell = String(repeating: " ", count: max(0, nameWidth - TextTable.displayWidth(name))) + name + ": 0x"
            cell += String(repeating: "0", count: max(0, digits - hex.count)) + hex
            if let description = register.description {
                line.append(cell + " " + TerminalText.escaped(description))
                flush()
            } else {
                line.append(cell)
                if line.count >= perLine { flush() }
            }
        }
        flush()
        return out
    }

    /// The binary images in Apple's layout: `0x1025a0000 - 0x102763fff Lumen arm64  <uuid> path`.
    private static func imageSection(_ images: [CrashReport.BinaryImage]) -> String {
        var out = "\nBinary images\n"
        let ends = images.map { $0.end?.description ?? "???" }
        let baseWidth = images.map(\.base.description.count).max() ?? 0
        let endWidth = ends.map(\.count).max() ?? 0
        for (image, end) in zip(images, ends) {
            let base = image.base.description
            var line = "  " + String(repeating: " ", count: baseWidth - base.count) + base + " - "
            line += String(repeating: " ", count: endWidth - end.count) + end
            line += " " + TerminalText.escaped(image.name ?? "???")
            if let arch = image.arch { line += " " + TerminalText.escaped(arch) }
            if let uuid = image.uuid { line += "  <\(TerminalText.escaped(uuid))>" }
            if let path = image.path { line += " " + TerminalText.escaped(path) }
            out += line + "\n"
        }
        return out
    }

    private static func frames(_ frames: [CrashReport.Frame], limit: Int?) -> String {
        let limit = limit ?? frames.count
        var table = TextTable(
            headers: ["", "#", "IMAGE", "ADDRESS", "WHERE"],
            alignments: [.left, .right, .left, .right, .left]
        )
        for frame in frames.prefix(limit) {
            var location = frame.symbol.map { symbol in frame.symbolOffset.map { "\(symbol) + \($0)" } ?? symbol }
            if location == nil, let offset = frame.imageOffset { location = "+ \(offset)" }
            if let file = frame.file { location = (location ?? "") + " (\(file)\(frame.line.map { ":\($0)" } ?? ""))" }
            if frame.inlined == true { location = (location ?? "") + " [inlined]" }
            table.append([
                frame.isAppFrame == true ? "▶" : "", String(frame.index), frame.image ?? "???",
                frame.address?.description ?? "", location ?? "",
            ])
        }
        var out = table.render(indent: "  ")
        if frames.count > limit { out += "  … \(frames.count - limit) more frames\n" }
        return out
    }
}
