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
    public init?(crash report: CrashReport, watchdog: WatchdogTermination? = nil) {
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
        if kind == .crash && machException == nil && signal != nil { mechanismType = "signal" }
        fillContext(from: report)
        images = Self.images(of: report, droppedInto: &extra)
        let imagesByName = Self.imageLookup(report.binaryImages)
        var threads: [Thread] = []
        for thread in report.threads.prefix(Self.maximumThreads) {
            threads.append(
                Thread(
                    id: thread.index,
                    name: thread.name ?? thread.queue,
                    crashed: thread.crashed || thread.attributed,
                    isMain: thread.index == 0,
                    frames: Self.frames(thread.frames, images: imagesByName)
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
        if let watchdog {
            // Grouped by kill code first: the same frames under 0x8badf00d and 0xdead10cc are different problems.
            fingerprint =
                ["watchdog", watchdog.code?.description ?? watchdog.kind.rawValue] + (signature.map { [$0] } ?? [])
            if let diagnosis = watchdog.diagnosis {
                extra.append(("main_thread_verdict", diagnosis.verdict.rawValue))
                extra.append(("main_thread_summary", diagnosis.summary))
            }
            if let event = watchdog.event { extra.append(("watchdog_event", event)) }
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

    /// The codes or subtype as written, then what explains them: the exception message, the uncaught exception's
    /// reason from Application Specific Information, or else what the exception type means.
    private static func crashValue(_ report: CrashReport) -> String? {
        let exception = report.exception
        var parts: [String] = []
        if let subtype = exception?.subtype, !subtype.isEmpty {
            parts.append(subtype)
        } else if let codes = exception?.codes, !codes.isEmpty {
            parts.append(codes)
        }
        var explained = false
        if let message = exception?.message, !message.isEmpty {
            parts.append(message)
            explained = true
        }
        if let reason = report.applicationSpecificInformation?.first(where: { $0.contains("exception") }) {
            parts.append(String(reason.prefix(1_000)))
            explained = true
        }
        if !explained, let meaning = exception?.meaning { parts.append(meaning) }
        if parts.isEmpty, let indicator = report.termination?.indicator { parts.append(indicator) }
        return parts.isEmpty ? nil : parts.joined(separator: " > ")
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
        if let values = exception.codeValues, let first = values.first {
            mach.code = first.value
            if values.count > 1 { mach.subcode = values[1].value }
        } else if let kern = exception.kernReturn.flatMap(AppleCodes.kernReturn) {
            mach.code = kern
            mach.subcode = exception.faultAddress?.value
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
