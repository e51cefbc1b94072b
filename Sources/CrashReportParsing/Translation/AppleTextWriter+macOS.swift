import APMInspectCore

extension AppleTextWriter {
    private static let width = 23

    /// The macOS layout of OSALegacyXform (`Report Version: 12`), which starts with a blank line.
    mutating func writeMacOS() {
        let width = Self.width
        line()
        field("Process", processValue, width: width)
        field("Path", report.path, width: width)
        field("Identifier", report.bundleId ?? report.process, width: width)
        field("Version", versionValue ?? "???", width: width)
        field("App Item ID", extras.itemID, width: width)
        field("App External ID", extras.externalID, width: width)
        field("Code Type", codeTypeValue, width: width)
        field("Parent Process", Self.named(report.parentProcess, report.parentPid), width: width)
        field("Responsible", Self.named(report.responsibleProcess, report.responsiblePid), width: width)
        field("User ID", extra("userID"), width: width)
        line()
        field("Date/Time", report.date.map(Self.appleDate), width: width)
        field("OS Version", report.osVersion, width: width)
        field("Report Version", "12", width: width)
        field("Anonymous UUID", report.crashReporterKey, width: width)
        line()
        field("Sleep/Wake UUID", extra("sleepWakeUUID"), width: width)
        line()
        field("Time Awake Since Boot", extra("uptime").map { "\($0) seconds" }, width: width)
        field("Time Since Wake", extra("wakeTime").map { "\($0) seconds" }, width: width)
        line()
        if let sip = extra("sip") {
            line("System Integrity Protection: " + sip)
            line()
        }
        if let crashed = crashedIndex {
            var text = Self.padRight("Crashed Thread:", width) + "\(crashed)"
            if let queue = triggeredQueue(crashed) { text += "  Dispatch queue: " + queue }
            line(text)
            line()
        }
        writeMacOSException()
        writeMacOSBlocks()
        for (position, thread) in report.threads.enumerated() {
            writeMacOSThread(thread, position: position)
        }
        line()
        if let crashed = crashedIndex,
            let position = report.threads.firstIndex(where: { $0.index == crashed }),
            report.threads.indices.contains(position)
        {
            writeThreadState(report.threads[position])
            writeInstructionStream(threadIndex: crashed, position: position)
        }
        line("Binary Images:")
        for image in listedImages {
            var text = Self.imageRange(image) + " " + (Self.column(image.bundleId) ?? Self.imageName(image))
            text += " (" + (image.version ?? "*") + ") <" + Self.dashedUUID(image.uuid ?? "") + "> "
            text += image.path ?? "???"
            line(text)
        }
        line()
        writeExternalModifications()
        if let summary = extras.vmSummary ?? block("VM Region Summary") {
            titledBlock("VM Region Summary:", summary, blankLines: 3)
        }
    }

    /// `legacyInfo.threadTriggered.queue`, else the crashed thread's queue.
    private func triggeredQueue(_ crashed: Int) -> String? {
        if case .string(let queue) = report.unknownKeys?["legacyInfo"]?["threadTriggered"]?["queue"] { return queue }
        return report.threads.first { $0.index == crashed }?.queue
    }

    private mutating func writeMacOSException() {
        let width = Self.width
        if let exception = report.exception {
            field("Exception Type", exceptionTypeValue, width: width)
            // The symbolic subtype comes first as a second `Exception Codes:` line, then the raw codes.
            field("Exception Codes", exception.subtype, width: width)
            field("Exception Codes", exception.codes, width: width)
            field("Exception Message", exception.message, width: width)
            field("Exception Note", exceptionNote, width: width)
            line()
        }
        if let termination = report.termination {
            var text = ""
            if let namespace = termination.namespace { text = "Namespace \(namespace)" }
            if let code = termination.code { text += (text.isEmpty ? "" : ", ") + "Code \(code.value)" }
            if let indicator = termination.indicator { text += (text.isEmpty ? "" : " ") + indicator }
            if !text.isEmpty { field("Termination Reason", text, width: width) }
            for reason in termination.reasons { line(reason) }
            for detail in termination.details ?? [] { line(detail) }
            field("Terminating Process", terminatingProcess, width: width)
            line()
        }
        if let region = extras.vmRegionInfo ?? block("VM Region Info") {
            raw("VM Region Info: " + region)
            line()
        }
    }

    private mutating func writeMacOSBlocks() {
        if let asi = extras.applicationSpecificInformation ?? report.applicationSpecificInformation, !asi.isEmpty {
            line("Application Specific Information:")
            for text in asi { line(text) }
            line()
        }
        var backtraces = 0
        for block in report.blocks where block.title.hasPrefix("Application Specific Backtrace") {
            line(block.title + ":")
            for text in block.lines { line(text) }
            line()
            backtraces += 1
        }
        if backtraces == 0, let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
            line("Last Exception Backtrace:")
            writeFrames(backtrace, images: extras.lastExceptionImages)
            line()
        }
        if let triage = extras.kernelTriage ?? block("Kernel Triage") {
            titledBlock("Kernel Triage:", triage, blankLines: 1)
        }
    }

    private mutating func writeMacOSThread(_ thread: CrashReport.Thread, position: Int) {
        var text =
            "Thread \(thread.index)" + (thread.crashed ? " Crashed:" : (thread.attributed ? " Attributed:" : ":"))
        if thread.name != nil || thread.queue != nil {
            text += ": " + (thread.name ?? "")
            if let queue = thread.queue { text += " Dispatch queue: " + queue }
        }
        line(text)
        writeFrames(thread.frames, images: frameImages(ofThread: position))
        line()
    }

    /// `extMods`: calls other processes made on this one, this one made, and all processes made.
    private mutating func writeExternalModifications() {
        guard let mods = report.unknownKeys?["extMods"] else { return }
        line("External Modification Summary:")
        let groups = [
            ("targeted", "Calls made by other processes targeting this process:"),
            ("caller", "Calls made by this process:"),
            ("system", "Calls made by all processes on this machine:"),
        ]
        for (key, title) in groups {
            guard case .object(let members) = mods[key] else { continue }
            line("  " + title)
            for member in members.sorted(by: { $0.key < $1.key }) {
                if case .number(let count) = member.value { line("    \(member.key): \(count)") }
            }
        }
        line()
    }
}
