import APMInspectCore

extension KSCrashMapping {
    static let knownCrashKeys: Set<String> = ["error", "threads", "binary_images", "diagnosis"]
    static let knownErrorKeys: Set<String> = [
        "type", "mach", "signal", "address", "reason", "nsexception", "cpp_exception", "user_reported",
        "mach_exception", "mach_code", "mach_code_name", "mach_subcode", "signal_name", "signal_code",
        "signal_code_name", "nsexception_name", "nsexception_reason", "hang", "profile", "exit_reason",
    ]

    /// `crash`: the error, the threads, CrashDoctor's diagnosis.
    mutating func readCrash(
        _ crash: JSONElement,
        keyPath: String,
        into report: inout CrashReport,
        asi: inout [String],
        unknown: inout [JSONValue.Member]
    ) {
        guard expectObject(crash, keyPath) else { return }
        var kept: [JSONValue.Member] = []
        if let threads = crash.member("threads") {
            var extras: [JSONValue] = []
            report.threads = readThreads(threads, keyPath: Self.path(keyPath, "threads"), extras: &extras)
            if !extras.isEmpty { kept.append(JSONValue.Member(key: "threads", value: .array(extras))) }
            report.crashedThread = report.threads.first { $0.crashed }?.index
        }
        if let error = crash.member("error") {
            let errorPath = Self.path(keyPath, "error")
            if expectObject(error, errorPath) {
                readError(error, keyPath: errorPath, into: &report, asi: &asi)
                var errorKept: [JSONValue.Member] = []
                keepUnmapped(error, known: Self.knownErrorKeys, as: "error", in: &errorKept)
                // The members of the exception objects the model has no field for (userInfo, referenced_object …).
                for key in ["nsexception", "user_reported"] {
                    if let object = error[key], object.kind == .object {
                        keepUnmapped(object, known: ["name", "reason", "backtrace"], as: key, in: &errorKept)
                    }
                }
                kept += errorKept
            }
        }
        if let diagnosis = nonEmpty(text(crash.member("diagnosis"))) {
            report.blocks.append(CrashReport.Block(title: "CrashDoctor Diagnosis", text: diagnosis))
        }
        keepUnmapped(crash, known: Self.knownCrashKeys, as: "crash", in: &kept)
        if !kept.isEmpty {
            // One `crash` object: the unmapped members of `crash`, `error` and the threads together.
            var members: [JSONValue.Member] = []
            for member in kept {
                if member.key == "crash", case .object(let inner) = member.value {
                    members += inner
                } else {
                    members.append(member)
                }
            }
            unknown.append(JSONValue.Member(key: "crash", value: .object(members)))
        }
    }

    /// `crash.error`: the Mach exception and signal (2.x objects or the 2012 flat keys), and the exception that
    /// started it all (NSException, C++, user-reported, deadlock, memory termination) as Application Specific
    /// Information lines, the place Apple's reports give it.
    mutating func readError(_ error: JSONElement, keyPath: String, into report: inout CrashReport, asi: inout [String])
    {
        let type = nonEmpty(text(error.member("type")))
        var exception = CrashReport.Exception()
        var code: UInt64?
        var subcode: UInt64?
        var codeName: String?
        if let mach = error.member("mach"), expectObject(mach, Self.path(keyPath, "mach")) {
            let number = mach.member("exception")?.int64 ?? 0
            exception.type =
                nonEmpty(text(mach.member("exception_name")))
                ?? (number != 0 ? KSCrashNames.machException(number) : nil)
            code = unsigned(mach.member("code"))
            subcode = unsigned(mach.member("subcode"))
            codeName = nonEmpty(text(mach.member("code_name")))
        } else if let name = nonEmpty(text(error.member("mach_exception"))) {
            exception.type = name
            code = unsigned(error.member("mach_code"))
            subcode = unsigned(error.member("mach_subcode"))
            codeName = nonEmpty(text(error.member("mach_code_name")))
        }
        var signalCodeName: String?
        if let signal = error.member("signal"), signal.kind == .object {
            let number = signal.member("signal")?.int64 ?? 0
            exception.signal =
                nonEmpty(text(signal.member("name"))) ?? (number != 0 ? KSCrashNames.signal(number) : nil)
            signalCodeName = nonEmpty(text(signal.member("code_name")))
        } else if let name = nonEmpty(text(error.member("signal_name"))) {
            exception.signal = name
            signalCodeName = nonEmpty(text(error.member("signal_code_name")))
        } else if let number = error.member("signal")?.int64, number != 0 {
            exception.signal = KSCrashNames.signal(number)
        }
        let address = unsigned(error.member("address"))
        if exception.type != nil {
            let values = [code, subcode].compactMap { $0 }
            if !values.isEmpty { exception.codeValues = values.map(HexValue.init) }
            if exception.type == "EXC_BAD_ACCESS", let codeName, !codeName.hasPrefix("0x") {
                // Apple's symbolic spelling: `KERN_INVALID_ADDRESS at 0x0000000000000010`.
                exception.codes = codeName + " at " + Self.hex16(address ?? subcode ?? 0)
            } else if !values.isEmpty {
                exception.codes = Self.hex16(code ?? 0) + ", " + Self.hex16(subcode ?? 0)
            }
            if exception.type == "EXC_BAD_ACCESS", let address { exception.faultAddress = HexValue(address) }
        } else if exception.signal != nil, let signalCodeName, !signalCodeName.hasPrefix("0x"),
            signalCodeName.hasSuffix("_NOOP") == false
        {
            // A signal alone (no Mach exception): PLCrash-style `SEGV_MAPERR at 0x28`.
            exception.codes = signalCodeName + " at " + Self.hex16(address ?? 0)
            if exception.signal == "SIGSEGV" || exception.signal == "SIGBUS", let address {
                exception.faultAddress = HexValue(address)
            }
        }
        if exception.type != nil || exception.signal != nil { report.exception = exception }
        readOrigin(error, type: type, keyPath: keyPath, into: &report, asi: &asi)
        readKind(error, type: type, keyPath: keyPath, into: &report)
    }

    /// What raised the exception, by `error.type`.
    private mutating func readOrigin(
        _ error: JSONElement,
        type: String?,
        keyPath: String,
        into report: inout CrashReport,
        asi: inout [String]
    ) {
        let reason = nonEmpty(text(error.member("reason")))
        switch type {
        case "nsexception":
            let object = error.member("nsexception")
            let name =
                nonEmpty(text(object?.member("name"))) ?? nonEmpty(text(error.member("nsexception_name"))) ?? "?"
            let why =
                reason ?? nonEmpty(text(object?.member("reason")))
                ?? nonEmpty(text(error.member("nsexception_reason")))
            var line = "*** Terminating app due to uncaught exception '\(name)'"
            if let why { line += ", reason: '\(why)'" }
            asi.append(line)
            if let backtrace = object?.member("backtrace") {
                // The 2012 layout keeps the exception's own backtrace here; 2.x writes it as the crashed thread's.
                let frames = readFrames(backtrace, keyPath: Self.path(keyPath, "nsexception.backtrace"), held: 0)
                if !frames.isEmpty { report.lastExceptionBacktrace = frames }
            }
        case "cpp_exception":
            let name = nonEmpty(text(error.member("cpp_exception")?.member("name"))) ?? "?"
            asi.append(
                "libc++abi: terminating due to uncaught exception of type \(name)" + (reason.map { ": \($0)" } ?? "")
            )
        case "user":
            let object = error.member("user_reported")
            let name = nonEmpty(text(object?.member("name"))) ?? "?"
            asi.append("User-reported exception '\(name)'" + (reason.map { ", reason: '\($0)'" } ?? ""))
            if let backtrace = object?.member("backtrace"), backtrace.kind == .array {
                let frames = readFrames(backtrace, keyPath: Self.path(keyPath, "user_reported.backtrace"), held: 0)
                if !frames.isEmpty { report.lastExceptionBacktrace = frames }
            }
        case "deadlock":
            asi.append("Application main thread deadlocked")
        case "memory_termination":
            var line = "Memory termination"
            if let memory = error.member("memory_termination"), memory.kind == .object {
                var parts: [String] = []
                for key in [
                    "memory_level", "memory_pressure", "memory_footprint", "memory_limit", "app_transition_state",
                ] {
                    if let value = nonEmpty(text(memory[key])) { parts.append("\(key) \(value)") }
                }
                if !parts.isEmpty { line += ": " + parts.joined(separator: ", ") }
            }
            asi.append(line)
        case "termination":
            let why = nonEmpty(text(error.member("termination_reason"))) ?? "?"
            asi.append("Termination: \(why)")
        default:
            if let reason { asi.append(reason) }
        }
    }

    /// `0x` and 16 zero-padded hex digits, as Apple writes exception codes.
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
