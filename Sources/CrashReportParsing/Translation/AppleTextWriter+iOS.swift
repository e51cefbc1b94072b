import APMInspectCore

extension AppleTextWriter {
    private static let width = 21

    /// The iOS layout of OSALegacyXform (`Report Version: 104`).
    mutating func writeIOS() {
        let width = Self.width
        line()
        field("Incident Identifier", report.incidentID, width: width)
        field("CrashReporter Key", report.crashReporterKey, width: width)
        field("Hardware Model", report.hardwareModel, width: width)
        field("Process", processValue, width: width)
        field("Path", report.path, width: width)
        field("Identifier", report.bundleId ?? report.process, width: width)
        field("Version", versionValue ?? "???", width: width)
        field("AppStoreTools", extras.appStoreToolsBuild, width: width)
        field("AppVariant", extras.appVariant, width: width)
        field("Code Type", codeTypeValue, width: width)
        field("Role", report.role, width: width)
        field("Parent Process", Self.named(report.parentProcess, report.parentPid), width: width)
        field("Coalition", Self.named(report.coalition, report.coalitionId), width: width)
        line()
        field("Date/Time", report.date.map(Self.appleDate), width: width)
        field("Launch Time", report.launchTime.map(Self.appleDate), width: width)
        field("OS Version", report.osVersion, width: width)
        field("Release Type", report.releaseType, width: width)
        field("Baseband Version", extra("basebandVersion"), width: width)
        field("Report Version", "104", width: width)
        line()
        writeIOSException()
        if let crashed = crashedIndex {
            line("Triggered by Thread:  \(crashed)")
            line()
        }
        writeIOSBlocks()
        for (position, thread) in report.threads.enumerated() {
            writeIOSThread(thread, position: position)
        }
        line()
        if let crashed = crashedIndex, let thread = report.threads.first(where: { $0.index == crashed }) {
            writeThreadState(thread)
        }
        line("Binary Images:")
        for image in listedImages {
            var text = Self.imageRange(image) + " " + Self.imageName(image)
            // Apple names the placeholder's architecture `unknown-arch`.
            let arch = image.arch ?? (Self.isPlaceholder(image) ? "unknown-arch" : "???")
            text += " " + arch + "  <" + (image.uuid ?? "") + "> " + (image.path ?? "???")
            line(text)
        }
        line()
        line("EOF")
        line()
    }

    private mutating func writeIOSException() {
        if let exception = report.exception {
            if let type = exceptionTypeValue { line("Exception Type:  " + type) }
            if let subtype = exception.subtype { line("Exception Subtype: " + subtype) }
            if let message = exception.message { line("Exception Message: " + message) }
            if let codes = exception.codes { line("Exception Codes: " + codes) }
            if let region = extras.vmRegionInfo ?? block("VM Region Info") {
                raw("VM Region Info: " + region)
            }
            if let note = exceptionNote { line("Exception Note:  " + note) }
        }
        if let termination = report.termination {
            var parts: [String] = []
            if let namespace = termination.namespace { parts.append(namespace) }
            if let code = termination.code { parts.append(String(code.value)) }
            if let indicator = termination.indicator { parts.append(indicator) }
            if !parts.isEmpty { line("Termination Reason: " + parts.joined(separator: " ")) }
            for reason in termination.reasons { line(reason) }
            for detail in termination.details ?? [] { line(detail) }
            if let by = terminatingProcess { line("Terminating Process: " + by) }
        }
        if report.exception != nil || report.termination != nil { line() }
    }

    private mutating func writeIOSBlocks() {
        if let asi = extras.applicationSpecificInformation ?? report.applicationSpecificInformation, !asi.isEmpty {
            line("Application Specific Information:")
            for text in asi { line(text) }
            line()
            line()
        }
        if let triage = extras.kernelTriage ?? block("Kernel Triage") {
            titledBlock("Kernel Triage:", triage, blankLines: 2)
        }
        if let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
            line("Last Exception Backtrace:")
            writeFrames(backtrace, images: extras.lastExceptionImages)
            line()
        }
    }

    /// A block's lines joined, with a final newline.
    func block(_ title: String) -> String? {
        guard let block = report.blocks.first(where: { $0.title == title }) else { return nil }
        return block.lines.map { $0 + "\n" }.joined()
    }

    private mutating func writeIOSThread(_ thread: CrashReport.Thread, position: Int) {
        if thread.name != nil || thread.queue != nil {
            var text = "Thread \(thread.index) name:  " + (thread.name ?? "")
            if let queue = thread.queue { text += " Dispatch queue: " + queue }
            line(text)
        }
        let suffix = thread.crashed ? " Crashed:" : (thread.attributed ? " Attributed:" : ":")
        line("Thread \(thread.index)" + suffix)
        writeFrames(thread.frames, images: frameImages(ofThread: position))
        line()
    }
}
