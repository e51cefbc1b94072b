import APMInspectCore
import CrashReportParsing
import WatchdogAnalysis

extension BackendIncident {
    /// At most this many threads, frames per stack and images go into one event.
    ///
    /// Sentry drops events above a megabyte, and a hostile report could list millions. What is left out is
    /// counted in ``extra``.
    static let maximumThreads = 256
    static let maximumFrames = 512
    static let maximumImages = 2_048

    /// The incident of a crash report, or of a watchdog termination when `watchdog` is given; nil for a report
    /// that says it is not a crash (`SIMULATED`, stackshots).
    ///
    /// `imageVMAddress` answers, for an image's UUID and architecture, the `__TEXT` vmaddr a dSYM or binary gives:
    /// a report never writes it, and Sentry wants it only when it is known.
    package init?(
        crash report: CrashReport,
        watchdog: WatchdogTermination? = nil,
        imageVMAddress: (@Sendable (_ uuid: String, _ arch: String?) -> UInt64?)? = nil
    ) {
        // A sampling profile records no failure: no event at all.
        if report.category == .profile { return nil }
        let kind = Self.kind(of: report, watchdog: watchdog)
        if kind == .crash && report.isNotACrash && report.exception?.isNonFatal != true { return nil }
        if watchdog?.kind == .stackshot { return nil }
        let exception = report.exception
        let type: String
        let mechanism: String
        switch kind {
        case .watchdog:
            (type, mechanism) = ("WatchdogTermination", "watchdog_termination")
        case .outOfMemory:
            (type, mechanism) = ("OutOfMemory", "out_of_memory")
        case .hang:
            // As sentry-cocoa reports the app hangs it sees itself.
            (type, mechanism) = ("App Hanging", "AppHang")
        default:
            type = exception?.type ?? exception?.signal ?? report.termination?.namespace ?? "Crash"
            mechanism = "mach"
        }
        self.init(kind: kind, exceptionType: type, mechanismType: mechanism)
        isFatal = kind != .hang && !report.isNotACrash
        if let watchdog {
            exceptionValue = Self.watchdogValue(watchdog)
        } else if kind == .hang {
            exceptionValue = Self.hangValue(report.hang)
        } else {
            exceptionValue = Self.crashValue(report)
        }
        signal = Self.signal(of: exception)
        machException = Self.machException(of: exception)
        relevantAddress = exception?.faultAddress?.value
        if kind == .crash && machException == nil && signal != nil { mechanismType = "signal" }
        fillContext(from: report)
        images = Self.images(of: report, droppedInto: &extra)
        if let imageVMAddress {
            for index in images.indices {
                images[index].vmAddress = imageVMAddress(images[index].uuid, images[index].arch)
            }
        }
        let imagesByName = Self.imageLookup(report.binaryImages)
        var threads: [Thread] = []
        for thread in report.threads.prefix(Self.maximumThreads) {
            threads.append(
                Thread(
                    id: thread.index,
                    name: thread.name ?? thread.queue,
                    crashed: thread.crashed || thread.attributed,
                    isMain: thread.index == 0,
                    frames: Self.frames(thread.frames, images: imagesByName),
                    registers: thread.index == report.crashedThread ? Self.registers(thread.registers) : []
                )
            )
        }
        if report.threads.count > Self.maximumThreads {
            extra.append(("threads_left_out", String(report.threads.count - Self.maximumThreads)))
        }
        self.threads = threads
        exceptionThread = report.crashedThread.flatMap { index in threads.contains { $0.id == index } ? index : nil }
        if kind == .hang, exceptionThread == nil, threads.contains(where: { $0.id == 0 }) {
            // A hang is the main thread's.
            exceptionThread = 0
        }
        if let hang = report.hang {
            if let seconds = hang.durationSeconds { extra.append(("hang_duration_seconds", String(seconds))) }
            extra.append(("hang_recovered", hang.recovered ? "true" : "false"))
        }
        if let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
            exceptionFrames = Self.frames(backtrace, images: imagesByName)
        }
        signature = report.signature
        if let reasons = report.termination?.reasons, !reasons.isEmpty {
            extra.append(("termination_reason", reasons.joined(separator: " | ")))
        } else if let reason = report.terminationReason {
            extra.append(("termination_reason", reason))
        }
        if let code = report.exitReasonCode { extra.append(("exit_reason_code", code.description)) }
        if let information = report.applicationSpecificInformation, !information.isEmpty {
            extra.append(("application_specific_information", information.joined(separator: "\n")))
        }
        let functions = Self.groupingFunctions(of: report)
        if let watchdog {
            // Grouped by kill code first: the same frames under 0x8badf00d and 0xdead10cc are different problems.
            // Without function names, Sentry's own grouping (the stack it symbolicates) goes after the code.
            fingerprint =
                ["watchdog", watchdog.code?.description ?? watchdog.kind.rawValue] + (functions ?? ["{{ default }}"])
            if let diagnosis = watchdog.diagnosis {
                extra.append(("main_thread_verdict", diagnosis.verdict.rawValue))
                extra.append(("main_thread_summary", diagnosis.summary))
            }
            if let event = watchdog.event { extra.append(("watchdog_event", event)) }
        } else if let functions {
            fingerprint = [kind == .crash ? Self.groupingKind(of: report) : kind.tag] + functions
        }
    }

    /// What a crash report is for a backend: its watchdog kill, the hang or the memory kill its category says, or
    /// a crash.
    static func kind(of report: CrashReport, watchdog: WatchdogTermination?) -> Kind {
        if watchdog != nil { return .watchdog }
        switch report.category {
        case .hang: return .hang
        case .outOfMemory: return .outOfMemory
        default: return .crash
        }
    }

    /// sentry-cocoa's wording (`App hanging for at least 2000 ms.`), with the length the report measured.
    static func hangValue(_ hang: CrashReport.Hang?) -> String {
        guard let seconds = hang?.durationSeconds else { return "App hanging for an unknown time." }
        let milliseconds = (seconds * 1_000).rounded()
        guard milliseconds.isFinite, let whole = Int64(exactly: milliseconds) else { return "App hanging." }
        return "App hanging for \(whole) ms."
    }

    /// Fills the device, OS and app facts of a crash report.
    mutating func fillContext(from report: CrashReport) {
        hardwareModel = report.hardwareModel
        deviceArch = report.binaryImages.first(where: { $0.isApp })?.arch ?? AppleCodes.arch(codeType: report.codeType)
        osName = AppleCodes.osName(report.osName)
        osVersion = report.osVersionNumber
        osBuild = report.osBuild
        osRawDescription = report.osVersion
        process = report.process
        bundleId = report.bundleId
        appVersion = report.appVersion
        appBuild = report.appBuild
        appBuildID = Self.mainImageUUID(of: report).map(EventIdentity.dashed)
        timestamp = report.date
        incidentID = report.incidentID
        bugType = report.header?.bugType
    }

    static func mainImageUUID(of report: CrashReport) -> String? {
        let named = report.binaryImages.first { image in
            image.isApp && image.uuid != nil && (image.name == report.process || report.process == nil)
        }
        return (named ?? report.binaryImages.first { $0.isApp && $0.uuid != nil })?.uuid
    }

    /// What the crash says about itself, as Sentry's Apple pipeline shows it: the uncaught exception's reason, the
    /// crash_info or Application Specific Information message, the exception message; only without any of these
    /// the codes or subtype as written and what the exception type means.
    static func crashValue(_ report: CrashReport) -> String? {
        let exception = report.exception
        if let message = messageValue(report) { return message }
        var parts: [String] = []
        if let subtype = exception?.subtype, !subtype.isEmpty {
            parts.append(subtype)
        } else if let codes = exception?.codes, !codes.isEmpty {
            parts.append(codes)
        }
        if let meaning = exception?.meaning { parts.append(meaning) }
        if parts.isEmpty, let indicator = report.termination?.indicator { parts.append(indicator) }
        return parts.isEmpty ? nil : parts.joined(separator: " > ")
    }

    /// The report's own words on why it crashed, at most 1,000 characters (Sentry cuts longer values).
    static func messageValue(_ report: CrashReport) -> String? {
        let lines = (report.applicationSpecificInformation ?? []).map {
            $0.trimmingASCIIWhitespace()
        }.filter { !$0.isEmpty && !$0.hasPrefix("dyld4 config:") && !$0.hasPrefix("dyld3 config:") }
        // An uncaught NSException: its reason is the message (the type is its name). A JSON report since iOS 15
        // writes it composed in `exceptionReason`, which the crash model keeps among its unknown keys.
        if case .string(let composed)? = report.unknownKeys?["exceptionReason"]?["composed_message"],
            !composed.isEmpty
        {
            return String(composed.prefix(1_000))
        }
        for line in lines {
            if let reason = uncaughtReason(line) { return String(reason.prefix(1_000)) }
        }
        if !lines.isEmpty { return String(lines.joined(separator: "\n").prefix(1_000)) }
        if let message = report.exception?.message, !message.isEmpty { return String(message.prefix(1_000)) }
        return nil
    }

    /// The reason of `*** Terminating app due to uncaught exception 'NAME', reason: 'REASON'`.
    static func uncaughtReason(_ line: String) -> String? {
        guard line.contains("uncaught exception"), let marker = line.firstRange(of: "reason: '") else { return nil }
        var reason = line[marker.upperBound...]
        if reason.hasSuffix("'") { reason = reason.dropLast() }
        return reason.isEmpty ? nil : String(reason)
    }

    private static func watchdogValue(_ watchdog: WatchdogTermination) -> String {
        var parts: [String] = []
        if let code = watchdog.code { parts.append(code.description) }
        if let name = watchdog.codeName { parts.append("(\(name))") }
        if let meaning = watchdog.meaning { parts.append(meaning) }
        if let event = watchdog.event { parts.append("during \(event)") }
        return parts.isEmpty ? watchdog.kind.rawValue : parts.joined(separator: " ")
    }

    static func signal(of exception: CrashReport.Exception?) -> Signal? {
        guard let name = exception?.signal, !name.isEmpty else { return nil }
        var signal = Signal(number: AppleCodes.signalNumber(name), name: name)
        // PLCrashReporter-style codes start with the signal code's name (`SEGV_MAPERR at 0x28`).
        if let first = exception?.codes?.split(separator: " ").first, first.contains("_"), !first.hasPrefix("KERN_"),
            !first.hasPrefix("0x")
        {
            signal.codeName = String(first)
            signal.code = AppleCodes.signalCode(String(first))
        }
        return signal
    }

    static func machException(of exception: CrashReport.Exception?) -> MachException? {
        guard let exception, let name = exception.type, let number = AppleCodes.machExceptionNumber(name) else {
            return nil
        }
        var mach = MachException(exception: number, name: name)
        if let values = exception.codeValues, values.count >= 2 {
            mach.code = values[0].value
            mach.subcode = values[1].value
        } else if let kern = exception.kernReturn.flatMap(AppleCodes.kernReturn), let address = exception.faultAddress {
            mach.code = kern
            mach.subcode = address.value
        }
        return mach
    }

    /// The images that can be symbolicated: those with a UUID.
    static func images(of report: CrashReport, droppedInto extra: inout [(key: String, value: String)]) -> [Image] {
        var images: [Image] = []
        var withoutUUID = 0
        for image in report.binaryImages {
            guard let uuid = image.uuid, uuid.utf8.count == 32 else {
                withoutUUID += 1
                continue
            }
            guard images.count < maximumImages else { continue }
            var size: UInt64?
            if let end = image.end, end.value >= image.base.value {
                let span = end.value - image.base.value
                size = span == UInt64.max ? nil : span + 1
            }
            images.append(
                Image(
                    uuid: uuid,
                    address: image.base.value,
                    size: size,
                    codeFile: image.path ?? image.name ?? "",
                    arch: image.arch ?? AppleCodes.arch(codeType: report.codeType)
                )
            )
        }
        if withoutUUID > 0 { extra.append(("images_without_uuid", String(withoutUUID))) }
        let kept = report.binaryImages.count - withoutUUID
        if kept > maximumImages { extra.append(("images_left_out", String(kept - maximumImages))) }
        return images
    }

    /// The registers as Sentry keys them: the name as the report wrote it, lower-cased (`x0`, `fp`, `pc`, `rip`).
    static func registers(_ registers: [CrashReport.Register]?) -> [Register] {
        (registers ?? []).prefix(128).compactMap { register in
            let name = register.name.trimmingASCIIWhitespace().lowercased()
            return name.isEmpty ? nil : Register(name: name, value: register.value.value)
        }
    }

    /// The kind words of the signature: Mach exception, signal and termination namespace.
    static func groupingKind(of report: CrashReport) -> String {
        let exception = report.exception
        let machType = exception?.type == exception?.signal ? nil : exception?.type
        let kind = [machType, exception?.signal, report.termination?.namespace].compactMap { $0 }
        return kind.isEmpty ? "crash" : kind.joined(separator: " ")
    }

    /// The frames the signature is made of (`image`function`), when every one of them has a function name: an
    /// offset changes with each build, so a fingerprint of offsets would split one bug into a group per release.
    static func groupingFunctions(of report: CrashReport) -> [String]? {
        guard let parts = report.signatureFrames, !parts.isEmpty else { return nil }
        let named = parts.allSatisfy { part in
            guard let tick = part.firstIndex(of: "`") else { return false }
            let function = part[part.index(after: tick)...]
            return !function.isEmpty && function != "<redacted>" && function != "???"
        }
        return named ? parts.map { String($0.prefix(200)) } : nil
    }

    static func imageLookup(_ images: [CrashReport.BinaryImage]) -> [String: CrashReport.BinaryImage] {
        var lookup: [String: CrashReport.BinaryImage] = [:]
        for image in images {
            if let name = image.name, lookup[name] == nil { lookup[name] = image }
        }
        return lookup
    }

    static func frames(_ frames: [CrashReport.Frame], images: [String: CrashReport.BinaryImage]) -> [Frame] {
        frames.prefix(maximumFrames).map { frame in
            let image = frame.image.flatMap { images[$0] }
            var imageAddress = image?.base.value
            if imageAddress == nil, let address = frame.address?.value, let offset = frame.imageOffset,
                offset <= address
            {
                imageAddress = address - offset
            }
            var symbolAddress: UInt64?
            if let address = frame.address?.value, let offset = frame.symbolOffset, offset <= address,
                frame.symbol != nil
            {
                symbolAddress = address - offset
            }
            return Frame(
                instructionAddress: frame.address?.value,
                imageAddress: imageAddress,
                symbolAddress: symbolAddress,
                package: image?.path ?? frame.image,
                imageName: frame.image,
                function: frame.symbol,
                fileName: frame.file,
                line: frame.line,
                inApp: frame.isAppFrame ?? image?.isApp,
                imageOffset: frame.imageOffset,
                imageUUID: image?.uuid
            )
        }
    }
}
